"""Where Factory droid's hooks live and what Cupcake writes there. droid 0.225.2 read hooks from
``.factory/settings.json`` and did not pick up a project ``.factory/hooks.json``."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.droid.capabilities import CAPABILITIES

NAME = "droid"
SCOPES = {"project": os.path.join(".factory", "settings.json"), "user": os.path.join("~", ".factory", "settings.json")}
EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "PreCompact",
    "Notification",
)
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})
TIMEOUT_UNIT = "seconds"


def config_path(scope: str, project_dir: str, env) -> str:
    return hookfile.scope_path(SCOPES, scope, project_dir, env)


def hook_entries(events, word: str, timeout: int, closed: bool = False, jail: str = "") -> dict:
    return hookfile.entries(
        NAME,
        events,
        CAPABILITIES,
        word,
        grouped=True,
        closed=closed,
        jail=jail,
        handler=lambda command: {"type": "command", "command": command, "timeout": timeout},
        matcher=lambda event: "*" if event in TOOL_EVENTS else None,
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
    out = []
    for base in (os.path.join(project_dir, ".factory"), os.path.join(home, ".factory")):
        out += [os.path.join(base, n) for n in ("settings.json", "settings.local.json", "hooks.json")]
        out.append(os.path.join(base, "hooks", "hooks.json"))
    return out
