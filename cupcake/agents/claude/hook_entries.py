"""Cupcake's hook entries in Claude Code settings: which events, and the handler and matcher group
written for each (the command itself is every agent's: ``cupcake.agents.hook_command``)."""

from __future__ import annotations

from cupcake.agents import hook_command

NAME = "claude"
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


def command(word: str, event: str, closed: bool, jail: str = "") -> str:
    """``jail``: the OS layer's flag (``hook_command.JAIL_FLAGS``), for the PreToolUse hook only."""
    return hook_command.build(word, NAME, event, event in hook_command.BLOCKING_EVENTS, closed, jail)


def handler(word: str, event: str, closed: bool, timeout, jail: str = "") -> dict:
    return {"type": "command", "command": command(word, event, closed, jail), "timeout": timeout}


def group(event: str, entry: dict) -> dict:
    if event in NO_MATCHER:
        return {"hooks": [entry]}
    return {"matcher": "", "hooks": [entry]}


def is_cupcake(command, also=()) -> bool:
    """Whether a hook command is Cupcake's for Claude Code: ``<exe> run --event <Event>`` with any of
    the tails a Cupcake writes, where the executable is named cupcake, a path ending in /cupcake, or one
    of ``also``."""
    return hook_command.is_cupcake(command, NAME, also)
