"""Where Copilot CLI's hooks live and what Cupcake writes there: a file of its own in the
repository (``.github/hooks/cupcake.json``, loaded only in a trusted folder) or the ``hooks`` of
``~/.copilot/settings.json``. No matchers: every tool reaches the hook."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.copilot.capabilities import CAPABILITIES

NAME = "copilot"
SCOPES = {
    "project": os.path.join(".github", "hooks", "cupcake.json"),
    "user": os.path.join("~", ".copilot", "settings.json"),
}
EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd")
TIMEOUT_UNIT = "seconds"


def config_path(scope: str, project_dir: str, env) -> str:
    return hookfile.scope_path(SCOPES, scope, project_dir, env)


def hook_entries(events, word: str, timeout: int, closed: bool = False, jail: str = "") -> dict:
    return hookfile.entries(
        NAME,
        events,
        CAPABILITIES,
        word,
        grouped=False,
        closed=closed,
        jail=jail,
        handler=lambda command: {"type": "command", "bash": command, "timeoutSec": timeout},
    )


def update_text(
    text: str,
    events,
    word: str,
    timeout: int,
    closed: bool = False,
    uninstall: bool = False,
    scope: str = "project",
    jail: str = "",
) -> str:
    top = {"version": 1} if scope == "project" else {}
    return hookfile.update(
        text,
        NAME,
        hook_entries(events, word, timeout, closed, jail),
        grouped=False,
        key="bash",
        top=top,
        uninstall=uninstall,
    )


def protected_paths(project_dir: str, env) -> list[str]:
    """The whole ``.github/hooks`` directory: any file there is a hook Copilot runs."""
    home = hookfile.home_of(env)
    return [
        os.path.join(project_dir, ".github", "hooks"),
        os.path.join(home, ".copilot", "settings.json"),
        os.path.join(home, ".copilot", "config.json"),
    ]
