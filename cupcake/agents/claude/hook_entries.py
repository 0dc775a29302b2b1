"""Cupcake's hook entries in Claude Code settings: which events, what command, and how an
entry written by any Cupcake (this one or an older one) is recognised."""

from __future__ import annotations

import os
import re
import shlex
import sys

# One entry per event: the six of seed 001, and those state, context, cleanup and approvals need.
EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "Notification",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "UserPromptSubmit",
    "SessionStart",
    "SessionEnd",
    "PostToolUseFailure",
    "PermissionRequest",
)
# Events whose hooks take no matcher (Claude Code ignores one there, so none is written).
NO_MATCHER = frozenset({"UserPromptSubmit", "Stop"})
# Matchers that let every call of the event through to the hook.
MATCH_ALL = ("", "*")

# fail_mode = "closed": a missing or crashing executable blocks too (exit 2 blocks in Claude Code),
# and the flag tells `cupcake run` the mode before it imports anything: a Cupcake that cannot
# import its own modules still knows to block (it exits 2).
CLOSED_SUFFIX = " || exit 2"
FAIL_CLOSED_FLAG = "--fail-closed"
_CLOSED = re.compile(r"\s*\|\|\s*exit\s+2\s*$")

SCOPES = {
    "project": os.path.join(".claude", "settings.json"),
    "local": os.path.join(".claude", "settings.local.json"),
    "user": os.path.join("~", ".claude", "settings.json"),
}
# The project file is shared with teammates: it names the executable; the others use this installation's path.
SHARED_SCOPES = frozenset({"project"})
DEFAULT_NAME = "cupcake"
_PLAIN = re.compile(r"[A-Za-z0-9_./${}+:@%=,~-]+")


def home_of(env) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def settings_path(scope: str, root: str, env) -> str:
    if scope == "user":
        return os.path.join(home_of(env), ".claude", "settings.json")
    return os.path.join(root, SCOPES[scope])


def installation_executable():
    """This installation's `cupcake` launcher: beside the running interpreter (the venv's bin)."""
    path = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "cupcake")
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def command_word(executable: str) -> str:
    """The executable as written into a shell command line (quoted only when it has to be)."""
    return executable if _PLAIN.fullmatch(executable) else shlex.quote(executable)


# The OS layer with Cupcake's jail (`cupcake sync --jail`): on the PreToolUse hook, which then blocks when
# Cupcake cannot run whatever fail_mode says (a call would otherwise run outside the jail).
JAIL_FLAGS = ("--jail", "--jail-unshare-net")
FLAGS = frozenset({FAIL_CLOSED_FLAG, *JAIL_FLAGS})


def hook_command(word: str, event: str, closed: bool, jail: str = "") -> str:
    jailed = f" {jail}" if jail and event == "PreToolUse" else ""
    if closed:
        return f"{word} run --event {event} {FAIL_CLOSED_FLAG}{jailed}{CLOSED_SUFFIX}"
    return f"{word} run --event {event}{jailed}" + (CLOSED_SUFFIX if jailed else "")


def handler(word: str, event: str, closed: bool, timeout, jail: str = "") -> dict:
    return {"type": "command", "command": hook_command(word, event, closed, jail), "timeout": timeout}


def jail_flag(command) -> str:
    """The OS layer's flag on one of Cupcake's hook commands, or ""."""
    split = split_command(command) if isinstance(command, str) else None
    return next((f for f in split[0][4:] if f in JAIL_FLAGS), "") if split else ""


def group(event: str, entry: dict) -> dict:
    if event in NO_MATCHER:
        return {"hooks": [entry]}
    return {"matcher": "", "hooks": [entry]}


def split_command(command: str):
    """(argv, closed) of a hook command line, or None when it cannot be split."""
    closed = _CLOSED.search(command)
    body = command[: closed.start()] if closed else command
    try:
        argv = shlex.split(body)
    except ValueError:
        return None
    return argv, bool(closed)


def holds_closed(command: str) -> bool:
    """Whether a hook command blocks when Cupcake cannot run: ``--fail-closed`` and ``|| exit 2``."""
    split = split_command(command) if isinstance(command, str) else None
    return bool(split and split[1] and FAIL_CLOSED_FLAG in split[0][4:])


def is_cupcake(command, also=()) -> bool:
    """Whether a hook command is Cupcake's: ``<exe> run --event <Event>`` (optionally
    ``--fail-closed``, optionally ``|| exit 2``)
    where the executable is named cupcake, a path ending in /cupcake, or one of ``also``."""
    if not isinstance(command, str):
        return False
    split = split_command(command)
    if split is None:
        return False
    argv = split[0]
    if len(argv) > 4 and len(argv) <= 6 and all(flag in FLAGS for flag in argv[4:]):
        argv = argv[:4]
    if len(argv) != 4 or argv[1:3] != ["run", "--event"] or not argv[3]:
        return False
    exe = argv[0]
    return exe == DEFAULT_NAME or exe.endswith("/" + DEFAULT_NAME) or exe in also


def executable_of(command: str):
    split = split_command(command)
    return split[0][0] if split and split[0] else None
