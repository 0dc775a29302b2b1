"""Where Copilot CLI's hooks live and what Cupcake writes there: a file of its own in the
repository (``.github/hooks/cupcake.json``, loaded only in a trusted folder) or the ``hooks`` of
``~/.copilot/settings.json``. No matchers: every tool reaches the hook."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.copilot.capabilities import CAPABILITIES
from cupcake.agents.hookfile import no_doctor_findings as doctor_findings  # noqa: F401
from cupcake.agents.hookfile import no_findings as file_findings  # noqa: F401
from cupcake.agents.hookfile import no_os_layer as os_layer  # noqa: F401
from cupcake.agents.hookfile import no_own_sandbox as own_sandbox_on  # noqa: F401
from cupcake.agents.hookfile import no_settings_dirs as settings_dirs  # noqa: F401
from cupcake.agents.hookfile import nothing_to_protect as protect  # noqa: F401 (the installer interface)
from cupcake.agents.hookfile import nothing_to_unprotect as unprotect  # noqa: F401

# What `cupcake sync` may do here besides the hooks: the OS layer, Cupcake's jail (``--sandbox`` turns it on,
# as ``--jail`` does: this agent's own sandbox is not the layer).
OPTIONS = frozenset({"sandbox", "jail"})
SANDBOX = "jail"
NAME = "copilot"
SCOPES = {
    "project": os.path.join(".github", "hooks", "cupcake.json"),
    "user": os.path.join("~", ".copilot", "settings.json"),
}
EVENTS = ("PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "SessionEnd")


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
    timeout,
    closed: bool = False,
    uninstall: bool = False,
    scope="project",
    also=(),
    jail: str = "",
) -> str:
    top = {"version": 1} if scope == "project" else {}
    return hookfile.update(
        text,
        NAME,
        hook_entries(events, word, int(timeout), closed, jail),
        grouped=False,
        key="bash",
        top=top,
        uninstall=uninstall,
        also=also,
    )


def protected_paths(project_dir: str, env) -> list[str]:
    """The whole ``.github/hooks`` directory: any file there is a hook Copilot runs."""
    home = hookfile.home_of(env)
    return [
        os.path.join(project_dir, ".github", "hooks"),
        os.path.join(home, ".copilot", "settings.json"),
        os.path.join(home, ".copilot", "config.json"),
    ]


def hook_events(compiled) -> tuple:
    """The events Cupcake hooks here, whatever the policies name."""
    return EVENTS


def hooks_in(text: str) -> list:
    """(event, command, timeout in seconds) of Cupcake's hooks in the file (ValueError: not JSON)."""
    return hookfile.commands_in(text, NAME, "bash", "timeoutSec", 1)


def notes(scope: str, root: str, env, **_options) -> list[str]:
    if scope != "project":
        return []
    return [
        "Copilot CLI loads .github/hooks/ only in a folder it trusts (answer its trust prompt, or run with --trust-folder)."
    ]


def jail_notes(jail_dirs=()) -> list[str]:
    """Copilot CLI asks before it runs a command naming a path outside the project, and a jailed command
    names ``jail_dirs`` (Cupcake's interpreter and package)."""
    import shlex

    flags = " ".join(f"--add-dir {shlex.quote(d)}" for d in jail_dirs)
    return [
        "Copilot CLI asks before it runs a command that names a path outside the project, and a jailed command "
        f"names two directories of Cupcake's: run `copilot {flags}` (a headless run refuses every shell call "
        "without them; an interactive one asks once for each)."
    ]


def transcript_dirs(env) -> list[str]:
    """Where Copilot CLI keeps its session transcripts (``~/.copilot/session-state``): they hold what the person was shown,
    approval codes included, so no tool of the agent may read them."""
    return [os.path.join(hookfile.home_of(env), ".copilot", "session-state")]
