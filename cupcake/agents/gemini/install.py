"""Where Gemini CLI's hooks live and what Cupcake writes there (timeouts in milliseconds)."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.gemini.capabilities import CAPABILITIES

NAME = "gemini"
SCOPES = {"project": os.path.join(".gemini", "settings.json"), "user": os.path.join("~", ".gemini", "settings.json")}
EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "PreCompact")
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
TIMEOUT_UNIT = "milliseconds"


def config_path(scope: str, project_dir: str, env) -> str:
    return hookfile.scope_path(SCOPES, scope, project_dir, env)


def hook_entries(events, word: str, timeout: int, closed: bool = False, jail: str = "") -> dict:
    """``timeout`` in seconds, like every other agent's; written in milliseconds."""
    return hookfile.entries(
        NAME,
        events,
        CAPABILITIES,
        word,
        grouped=True,
        closed=closed,
        jail=jail,
        handler=lambda command: {"name": "cupcake", "type": "command", "command": command, "timeout": timeout * 1000},
        matcher=lambda event: ".*" if event in TOOL_EVENTS else None,
    )


def update_text(
    text: str,
    events,
    word: str,
    timeout: int,
    closed: bool = False,
    uninstall: bool = False,
    jail: str = "",
) -> str:
    return hookfile.update(
        text, NAME, hook_entries(events, word, timeout, closed, jail), grouped=True, uninstall=uninstall
    )


def protected_paths(project_dir: str, env) -> list[str]:
    home = hookfile.home_of(env)
    return [
        os.path.join(project_dir, ".gemini", "settings.json"),
        os.path.join(home, ".gemini", "settings.json"),
        os.path.join(os.sep, "etc", "gemini-cli", "settings.json"),
    ]
