"""The cheap half of the packs' conditions (``pack_prefilter``): on every line of the corpora, every pack
condition that holds passes it (it never hides a match), it filters most of them out, and a harmless
Bash call with the recommended packs does not load ``pack_match`` at all."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from cupcake.agents.event import Event
from cupcake.evaluate.event_view import EventView
from cupcake.evaluate.pack_match import holds
from cupcake.evaluate.pack_prefilter import may_hold
from tests.conftest import give_cache_secret
from tests.evaluate.pack_conditions import compiled_pack_conditions

TESTS = Path(__file__).resolve().parent.parent
PACK_KINDS = ("path", "secret", "sql", "hidden_code", "project_file")


def _lines() -> list:
    lines = ["ls -la", "git status", "echo done > out.txt", "cat ~/.ssh/id_rsa", "psql -c 'drop table x'"]
    for path in (TESTS / "corpus" / "pack_scorecard.toml", TESTS / "shell" / "corpus" / "bypasses.toml"):
        lines += [case["command"] for case in tomllib.loads(path.read_text())["case"]]
    return lines


def test_a_pack_condition_that_holds_always_passes_the_prefilter(tmp_path):
    conditions = compiled_pack_conditions(PACK_KINDS)
    assert {c[0] for c in conditions} == set(PACK_KINDS)
    held = filtered = 0
    for line in _lines():
        payload = {"tool_name": "Bash", "tool_input": {"command": line}, "cwd": str(tmp_path)}
        view = EventView(Event("PreToolUse", payload), str(tmp_path))
        for cond in conditions:
            passes = may_hold(cond, view)
            if holds(cond, view):
                held += 1
                assert passes, (line, cond[0])
            filtered += not passes
    assert held > 20 and filtered > 1000


def test_other_tools_are_left_to_the_conditions():
    view = EventView(Event("PreToolUse", {"tool_name": "Read", "tool_input": {"file_path": "/h/.ssh/id_rsa"}}), "/p")
    assert all(may_hold(cond, view) for cond in compiled_pack_conditions(PACK_KINDS))


def _loaded_after_a_warm_run(project, command: str, module: str) -> list:
    give_cache_secret(project.home)
    project.write_policy('imports = ["cupcake:recommended"]\n')
    payload = project.tool_call("Bash", {"command": command})
    assert project.send_process(payload).code == 0  # builds the policy cache: the next run is a warm one
    probe = (
        "import sys, os, json; from cupcake.cli.run import execute; "
        f"ctx = execute({json.dumps(payload).encode()!r}, [], dict(os.environ)); "
        f"print(json.dumps([ctx.envelope[2], {module!r} in sys.modules]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=project.root, env=project.env(), check=True
    )
    return json.loads(done.stdout)


def test_a_harmless_call_does_not_load_the_packs_conditions(project):
    assert _loaded_after_a_warm_run(project, "ls -la", "cupcake.evaluate.pack_match") == [0, False]


def test_a_short_text_written_does_not_load_the_secret_scanner(project):
    assert _loaded_after_a_warm_run(project, "echo done > out.txt", "cupcake.evaluate.secret_scan") == [0, False]
    assert _loaded_after_a_warm_run(project, "echo 'token: x' > out.txt", "cupcake.evaluate.secret_scan") == [0, True]
