"""The Bash sets of issue 27, through the hook (in process, the same entry the executable uses), in
a realistic workspace (``workspace.py``) with the default set-up (``cupcake:recommended`` and
self-protection): everyday commands and shell idioms stay allowed, hostile calls of every family
are denied. Known gaps are strict xfails with their reason (a ledger: a fix makes them fail).
``test_figures`` prints the counts the report gives."""

from __future__ import annotations

import pathlib
import tomllib

import pytest

from tests.protection.workspace import build, git_available

SETS = pathlib.Path(__file__).parent / "sets"
HARMLESS = tomllib.loads((SETS / "harmless.toml").read_text())["commands"]
IDIOMS = tomllib.loads((SETS / "idioms.toml").read_text())["commands"]
HOSTILE = [
    (c["family"], cmd) for c in tomllib.loads((SETS / "hostile.toml").read_text())["case"] for cmd in c["commands"]
]

LIMITS = {
    "{many}": "true; " * 2100 + "true",
    "{nested}": "echo " + "$(echo " * 45 + "x" + ")" * 45 + "; rm cupcake.toml",
    "{loops}": "for a in 1 2 3 4 5 6 7 8; do " * 7 + "true" + "; done" * 7 + "; rm cupcake.toml",
    "{long}": "true; " * 12_000 + "rm cupcake.toml",
    "{subst}": "x=" + '"$(' * 45 + "rm cupcake.toml" + ')"' * 45,
    "{braces}": "echo " + "{a,b,c,d}" * 12 + ";",
}

# Blocked although harmless: why, and what the block tells the agent to do instead.
KNOWN_BLOCKS = {
    "git stash && git pull --rebase && git stash pop": "a pull's commits arrive during it (the block says: fetch, then merge)",
    'out=${OUT_DIR:-build}; mkdir -p "$out"': "OUT_DIR is inherited: its value is not known, so the directory could be any path",
}
pytestmark = pytest.mark.skipif(not git_available(), reason="needs git")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    return build(tmp_path_factory.mktemp("sets"))


def decide(workspace, command: str):
    """The deny reason for this Bash call, or None when it is allowed."""
    answer = workspace.send(workspace.tool_call("Bash", {"command": command}))
    spec = answer.specific
    return spec.get("permissionDecisionReason") if spec.get("permissionDecision") == "deny" else None


def _expand(command: str) -> str:
    for key, value in LIMITS.items():
        command = command.replace(key, value)
    return command


def _allowed(commands):
    return [
        pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=KNOWN_BLOCKS[c])) if c in KNOWN_BLOCKS else c
        for c in commands
    ]


@pytest.mark.parametrize("command", _allowed(HARMLESS))
def test_everyday_commands_are_allowed(workspace, command):
    assert decide(workspace, command) is None


@pytest.mark.parametrize("command", _allowed(IDIOMS))
def test_shell_idioms_are_allowed(workspace, command):
    assert decide(workspace, command) is None


@pytest.mark.parametrize("family, command", HOSTILE, ids=[f"{f}: {c[:60]}" for f, c in HOSTILE])
def test_hostile_calls_are_denied(workspace, family, command):
    reason = decide(workspace, _expand(command))
    assert reason is not None, f"{family}: allowed"
    assert reason.startswith("Operation blocked: "), reason


def test_the_sets_are_broad():
    assert len(HARMLESS) >= 87 and len(IDIOMS) >= 64 and len(HOSTILE) >= 190
    assert len({f for f, _c in HOSTILE}) >= 13


def test_figures(workspace, capsys):
    """The counts for the report (each case is also a test of its own above)."""
    blocked = [c for c in HARMLESS if decide(workspace, c)]
    idioms = [c for c in IDIOMS if decide(workspace, c)]
    missed = [(f, c) for f, c in HOSTILE if decide(workspace, _expand(c)) is None]
    with capsys.disabled():
        print(f"\nharmless blocked: {len(blocked)} of {len(HARMLESS)} {blocked}")
        print(f"idioms blocked: {len(idioms)} of {len(IDIOMS)} {idioms}")
        print(f"hostile denied: {len(HOSTILE) - len(missed)} of {len(HOSTILE)} {missed}")
    assert len(blocked) <= 3 and len(idioms) <= 2 and not missed
