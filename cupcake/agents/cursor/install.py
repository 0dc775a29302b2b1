"""Where Cursor's hooks live and what Cupcake writes there (documented only): ``hooks.json``
version 1, a flat list of handlers per event; ``failClosed`` makes a crashing hook block."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.cursor.capabilities import CAPABILITIES
from cupcake.agents.hookfile import no_doctor_findings as doctor_findings  # noqa: F401
from cupcake.agents.hookfile import no_findings as file_findings  # noqa: F401
from cupcake.agents.hookfile import no_jail_notes as jail_notes  # noqa: F401
from cupcake.agents.hookfile import no_os_layer as os_layer  # noqa: F401
from cupcake.agents.hookfile import no_own_sandbox as own_sandbox_on  # noqa: F401
from cupcake.agents.hookfile import no_settings_dirs as settings_dirs  # noqa: F401
from cupcake.agents.hookfile import no_transcript_dirs as transcript_dirs  # noqa: F401 (undocumented: see below)
from cupcake.agents.hookfile import nothing_to_protect as protect  # noqa: F401 (the installer interface)
from cupcake.agents.hookfile import nothing_to_unprotect as unprotect  # noqa: F401

# Where Cursor keeps its session transcripts is not documented (a hook is told its file, CURSOR_TRANSCRIPT_PATH):
# self-protection names no folder of Cursor's transcripts.
# What `cupcake sync` may do here besides the hooks: the OS layer, Cupcake's jail (``--sandbox`` turns it on,
# as ``--jail`` does: this agent's own sandbox is not the layer).
OPTIONS = frozenset({"sandbox", "jail"})
SANDBOX = "jail"
NAME = "cursor"
SCOPES = {"project": os.path.join(".cursor", "hooks.json"), "user": os.path.join("~", ".cursor", "hooks.json")}
EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd")


def config_path(scope: str, project_dir: str, env) -> str:
    return hookfile.scope_path(SCOPES, scope, project_dir, env)


def hook_entries(events, word: str, timeout: int, closed: bool = False, jail: str = "") -> dict:
    def handler(command):
        entry = {"command": command, "type": "command", "timeout": timeout}
        if closed or (jail and f" {jail}" in command):
            entry["failClosed"] = True  # a hook that crashes blocks (the OS layer: never run unjailed)
        return entry

    return hookfile.entries(NAME, events, CAPABILITIES, word, grouped=False, closed=closed, handler=handler)


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
        text,
        NAME,
        hook_entries(events, word, int(timeout), closed, jail),
        grouped=False,
        top={"version": 1},
        uninstall=uninstall,
        also=also,
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


def hook_events(compiled) -> tuple:
    """The events Cupcake hooks here, whatever the policies name."""
    return EVENTS


def hooks_in(text: str) -> list:
    """(event, command, timeout in seconds) of Cupcake's hooks in the file (ValueError: not JSON)."""
    return hookfile.commands_in(text, NAME, "command", "timeout", 1)


def notes(scope: str, root: str, env, **_options) -> list[str]:
    return ["Cursor runs project hooks only in a trusted workspace (not verified in the real client)."]
