"""Where Cursor's hooks live and what Cupcake writes there (documented only): ``hooks.json``
version 1, a flat list of handlers per event; ``failClosed`` makes a crashing hook block."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.cursor.capabilities import CAPABILITIES

NAME = "cursor"
SCOPES = {"project": os.path.join(".cursor", "hooks.json"), "user": os.path.join("~", ".cursor", "hooks.json")}
EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd")
TIMEOUT_UNIT = "seconds"


def config_path(scope: str, project_dir: str, env) -> str:
    return hookfile.scope_path(SCOPES, scope, project_dir, env)


def hook_entries(events, word: str, timeout: int, closed: bool = False, jail: str = "") -> dict:
    def handler(command):
        entry = {"command": command, "type": "command", "timeout": timeout}
        if closed or any(f" {flag}" in command for flag in hookfile.JAIL_FLAGS):
            entry["failClosed"] = True  # a hook that crashes blocks (the OS layer: never run unjailed)
        return entry

    return hookfile.entries(NAME, events, CAPABILITIES, word, grouped=False, closed=closed, jail=jail, handler=handler)


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
        text,
        NAME,
        hook_entries(events, word, timeout, closed, jail),
        grouped=False,
        top={"version": 1},
        uninstall=uninstall,
    )


def protected_paths(project_dir: str, env) -> list[str]:
    """Cursor's hook files, and the Claude Code settings it imports hooks from."""
    home = hookfile.home_of(env)
    return [
        os.path.join(project_dir, ".cursor", "hooks.json"),
        os.path.join(home, ".cursor", "hooks.json"),
        os.path.join(os.sep, "etc", "cursor", "hooks.json"),
        os.path.join(project_dir, ".claude", "settings.json"),
        os.path.join(project_dir, ".claude", "settings.local.json"),
        os.path.join(home, ".claude", "settings.json"),
    ]
