"""Families, not examples: every option of every program in the registry that writes, removes,
re-modes or extracts into a path, runs a command, or takes code is tried with a value aimed at
Cupcake's files — and every one is denied. A program added to the registry is covered the day
it lands."""

from __future__ import annotations

import pytest

from cupcake import programs
from cupcake.programs import catalogue
from cupcake.programs.spec import CHANGES, CODE, CONFIG, RUNS, SCRIPT
from tests.protection.test_sets import decide
from tests.protection.workspace import build, git_available

pytestmark = pytest.mark.skipif(not git_available(), reason="needs git")

VALUES = {
    "writes": "cupcake.toml",
    "deletes": "cupcake.toml",
    "mode": "cupcake.toml",
    "links": "cupcake.toml",
    "into": ".cupcake",
    "runs": "rm cupcake.toml",
    "code": "unlink cupcake.toml",
    "config": "alias.x=!rm cupcake.toml",
    "script": "/dev/stdin",
}
# Options whose value is not a path or code of their own (their effect is said by a handler).
SKIP = {
    ("git", "--exec-path"),  # refused whatever its value (see the hostile set)
    ("tar", "--checkpoint-action"),  # runs a command only as exec=COMMAND (tried below)
    ("fd", "-x"),  # the words after it are the command, one word one argument (tried below)
    ("fd", "-X"),
}
EXTRA = [
    ("tar --checkpoint-action exec=", "tar -cf /dev/null . --checkpoint=1 --checkpoint-action=exec='rm cupcake.toml'"),
    ("fd -x", "fd -x rm cupcake.toml"),
    ("fd --exec-batch", "fd -e toml --exec-batch rm"),
]
KEYWORDS = {"time": "command time"}  # bash reads `time` as its keyword: the program is run through `command`


def _specs():
    seen = set()
    for name in catalogue.names():
        spec = programs.lookup(name)
        if spec is None or id(spec) in seen or spec.name.startswith("python -m"):
            continue
        seen.add(id(spec))
        yield from _tree(spec)


def _tree(spec):
    yield spec
    for key in list(spec.subcommands):
        sub = spec.sub(key)
        if sub is not None and sub.parent is spec and sub.name == key:
            yield from _tree(sub)


def _cases():
    out = []
    for spec in _specs():
        for opt in spec.options:
            tag = opt.effect
            if tag not in VALUES or (tag not in CHANGES and tag not in (RUNS, CODE, CONFIG, SCRIPT)):
                continue
            if opt.arg not in (1, -1) or (spec.program, opt.name) in SKIP:
                continue
            long = next((n for n in opt.names if n.startswith("--")), None)
            name = long or opt.name
            value = VALUES[tag]
            if tag == SCRIPT:
                command = (
                    f"{' '.join(spec.path)} {name}={value} <<< 'rm cupcake.toml'"
                    if long
                    else f"{' '.join(spec.path)} {name} {value} <<< 'rm cupcake.toml'"
                )
            else:
                quoted = "'" + value.replace("'", "'\\''") + "'"
                command = f"{' '.join(spec.path)} {name}={quoted}" if long else f"{' '.join(spec.path)} {name} {quoted}"
            first = spec.path[0]
            if first in KEYWORDS:
                command = KEYWORDS[first] + command[len(first) :]
            out.append((f"{' '.join(spec.path)} {name}", command))
    return out + EXTRA


CASES = _cases()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    return build(tmp_path_factory.mktemp("families"))


@pytest.mark.parametrize("label, command", CASES, ids=[c[0] for c in CASES])
def test_an_option_aimed_at_cupcakes_files_is_denied(workspace, label, command):
    assert decide(workspace, command) is not None, command


def test_the_families_are_many():
    assert len(CASES) > 150


def _wrapped():
    """Every wrapper, running `rm cupcake.toml` (with a placeholder for each value it takes first)."""
    out = []
    for spec in _specs():
        if spec.kind != "wrapper" or "command" not in spec.operands:
            continue
        before = spec.operands[: spec.operands.index("command")]
        head = " ".join(spec.path) + "".join(" x" for _ in before)
        first = spec.path[0]
        if first in KEYWORDS:
            head = KEYWORDS[first] + head[len(first) :]
        out.append((" ".join(spec.path), head + " rm cupcake.toml"))
    return out


def _operands():
    """Every program whose operands it changes, handed cupcake.toml."""
    out = []
    for spec in _specs():
        tags = [t for t in spec.operands if t in CHANGES]
        if not tags or spec.kind == "wrapper":
            continue
        out.append((" ".join(spec.path), " ".join(spec.path) + " cupcake.toml"))
    return out


WRAPPED = _wrapped()
OPERANDS = _operands()


@pytest.mark.parametrize("label, command", WRAPPED, ids=[c[0] for c in WRAPPED])
def test_every_wrapper_is_seen_through(workspace, label, command):
    assert decide(workspace, command) is not None, command


@pytest.mark.parametrize("label, command", OPERANDS, ids=[c[0] for c in OPERANDS])
def test_every_program_that_changes_its_operands_is_denied_the_policy_file(workspace, label, command):
    assert decide(workspace, command) is not None, command
