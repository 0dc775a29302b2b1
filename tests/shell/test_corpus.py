"""The bypass corpus (corpus/bypasses.toml): each case is read and checked against its expectation."""

from __future__ import annotations

import pathlib
import tomllib

import pytest

from .helpers import hits, read

CASES = tomllib.loads((pathlib.Path(__file__).parent / "corpus" / "bypasses.toml").read_text())["case"]


@pytest.mark.parametrize("case", CASES, ids=[c["command"][:60] for c in CASES])
def test_case(case):
    script = read(case["command"])
    assert script.incomplete is None
    if "program" in case:
        found = [c for c in script.commands if c.program == case["program"]]
        if "subcommand" in case:
            found = [c for c in found if c.subcommand() == case["subcommand"]]
        assert found, [c.argv for c in script.commands]
        if "flags" in case:
            assert any(c.has_flag(*case["flags"][:1]) and all(c.has_flag(f) for f in case["flags"]) for c in found)
    if "absent" in case:
        assert case["absent"] not in [c.program for c in script.commands]
    if "writes" in case:
        assert hits(case["command"]) == sorted(case["writes"])


def test_the_corpus_is_not_empty():
    assert len(CASES) >= 60
