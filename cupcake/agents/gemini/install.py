"""Where Gemini CLI's hooks live and what Cupcake writes there (timeouts in milliseconds)."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.gemini.capabilities import CAPABILITIES
from cupcake.agents.hookfile import no_doctor_findings as doctor_findings  # noqa: F401
from cupcake.agents.hookfile import no_findings as file_findings  # noqa: F401
from cupcake.agents.hookfile import no_jail_notes as jail_notes  # noqa: F401
from cupcake.agents.hookfile import no_notes as notes  # noqa: F401
from cupcake.agents.hookfile import no_os_layer as os_layer  # noqa: F401
from cupcake.agents.hookfile import no_own_sandbox as own_sandbox_on  # noqa: F401
from cupcake.agents.hookfile import no_settings_dirs as settings_dirs  # noqa: F401
from cupcake.agents.hookfile import nothing_to_protect as protect  # noqa: F401 (the installer interface)
from cupcake.agents.hookfile import nothing_to_unprotect as unprotect  # noqa: F401

# What `cupcake sync` may do here besides the hooks: the OS layer, Cupcake's jail (``--sandbox`` turns it on,
# as ``--jail`` does: this agent's own sandbox is not the layer).
OPTIONS = frozenset({"sandbox", "jail"})
SANDBOX = "jail"
NAME = "gemini"
SCOPES = {"project": os.path.join(".gemini", "settings.json"), "user": os.path.join("~", ".gemini", "settings.json")}
EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "PreCompact")
TOOL_EVENTS = frozenset({"PreToolUse", "PostToolUse"})


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
    timeout,
    closed: bool = False,
    uninstall: bool = False,
    scope="project",
    also=(),
    jail: str = "",
) -> str:
    return hookfile.update(
        text, NAME, hook_entries(events, word, int(timeout), closed, jail), grouped=True, uninstall=uninstall, also=also
    )


def protected_paths(project_dir: str, env) -> list[str]:
    home = hookfile.home_of(env)
    return [
        os.path.join(project_dir, ".gemini", "settings.json"),
        os.path.join(home, ".gemini", "settings.json"),
        os.path.join(os.sep, "etc", "gemini-cli", "settings.json"),
    ]


def hook_events(compiled) -> tuple:
    """The events Cupcake hooks here, whatever the policies name."""
    return EVENTS


def hooks_in(text: str) -> list:
    """(event, command, timeout in seconds) of Cupcake's hooks in the file (ValueError: not JSON)."""
    return hookfile.commands_in(text, NAME, "command", "timeout", 1000)


def transcript_dirs(env) -> list[str]:
    """Where Gemini CLI keeps its session transcripts (``~/.gemini/tmp/<project>/chats``): they hold what the person was shown,
    approval codes included, so no tool of the agent may read them."""
    return [os.path.join(hookfile.home_of(env), ".gemini", "tmp")]
