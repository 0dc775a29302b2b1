"""`cupcake systems`: the plan as the person reads it (the plan itself: tests/pipeline/test_runner.py
and tests/stages)."""

from __future__ import annotations


def test_cupcake_systems_text_marks_what_could_not_be_loaded():
    from cupcake.cli.systems import render

    row = {
        "order": 450,
        "name": "acme-x",
        "from": "entry point",
        "distribution": None,
        "version": None,
        "core": False,
        "enabled": False,
        "configured_in": "cupcake.toml:3",
    }
    text = render(
        {
            "files": ["cupcake.toml"],
            "systems": [row],
            "available": [],
            "problems": [
                {"file": "cupcake.toml", "line": 3, "message": 'custom system "acme-x" could not be loaded: gone'}
            ],
        }
    )
    assert text.splitlines() == [
        "order  system  from                     enabled  configured in",
        "  450  acme-x  entry point, not loaded  no       cupcake.toml:3",
        "",
        'cupcake.toml:3: error: custom system "acme-x" could not be loaded: gone',
    ]
