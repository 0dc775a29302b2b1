"""Input Cupcake cannot read: hook events and policy files past its limits."""

from __future__ import annotations

import json

from pytest_bdd import given, parsers, when

from tests.features.steps.helpers import _send

_SHAPES = {
    "is nested 1000 levels deep": b"[" * 1000 + b"]" * 1000,
    "holds a 5000-digit number": b'{"command": "ls", "n": ' + b"9" * 5000 + b"}",
    "is larger than 32 MiB": b'{"command": "ls #' + b"x" * (33 << 20) + b'"}',
    "is not UTF-8": b'{"command": "rm -rf build \xff"}',
    "holds a lone surrogate": b'{"command": "ls \\ud800"}',
}


@when(parsers.parse("the agent sends a Bash call whose input {shape}"))
def unreadable_call(project, run, shape):
    """A Bash PreToolUse whose tool_input is past Cupcake's limits, through the installed `cupcake run` process."""
    head = json.dumps(project.tool_call("Bash", {}))
    raw = head.replace('"tool_input": {}', '"tool_input": @').encode().replace(b"@", _SHAPES[shape])
    _send(project, run, raw, "PreToolUse", process=True)


@given(parsers.parse("the user's policy file holds an array nested {depth:d} deep"))
def deep_user_policy(project, depth):
    """~/.claude/cupcake.toml with one value: arrays inside arrays, ``depth`` deep (valid TOML)."""
    project.write_user_policy("limits = " + "[" * depth + "]" * depth + "\n")


@given(parsers.parse('the folder "{folder}" holds {count:d} folders'))
def many_folders(project, folder, count):
    """Made by a person or a program the hook cannot see (mkdir -p policies/d{1..510})."""
    for n in range(count):
        (project.root / folder / f"d{n}").mkdir(parents=True)
