"""Where Codex's hooks live and what Cupcake writes there. Codex loads project hooks only in a
trusted project, and skips every hook not trusted by hash (silently): ``trust.trust_project`` writes the
first; the second is done in Codex (``/hooks``, or app-server ``hooks/list`` + ``config/batchWrite``)."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.codex.capabilities import CAPABILITIES
from cupcake.agents.codex.home import codex_home
from cupcake.agents.hookfile import no_findings as file_findings  # noqa: F401
from cupcake.agents.hookfile import nothing_to_protect as protect  # noqa: F401 (the installer interface)
from cupcake.agents.hookfile import nothing_to_unprotect as unprotect  # noqa: F401

# What `cupcake sync` may do here besides the hooks: ask Codex to trust them (``trust``).
OPTIONS = frozenset({"trust"})
NAME = "codex"
SCOPES = {"project": os.path.join(".codex", "hooks.json"), "user": os.path.join("$CODEX_HOME", "hooks.json")}
EVENTS = (
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
)
TOOL_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "PostToolUse"})
TIMEOUT_UNIT = "seconds"
TRUST_NOTE = (
    "Codex runs project hooks only in a trusted project, and only hooks trusted by hash: review and trust "
    "Cupcake's hooks in Codex with /hooks (a changed command needs trusting again)."
)


def config_path(scope: str, project_dir: str, env) -> str:
    if scope == "user":
        return os.path.join(codex_home(env), "hooks.json")
    return os.path.join(project_dir, SCOPES["project"])


SHORT_EVENTS = {"SessionEnd": 3, "Interrupt": 3}  # Codex caps these hooks' timeout (and says so on every run)


def hook_entries(events, word: str, timeout: int, closed: bool = False) -> dict:
    out = hookfile.entries(
        NAME,
        events,
        CAPABILITIES,
        word,
        grouped=True,
        closed=closed,
        handler=lambda command: {"type": "command", "command": command, "timeout": timeout},
        matcher=lambda event: ".*" if event in TOOL_EVENTS else None,
    )
    for event, cap in SHORT_EVENTS.items():
        for group in out.get(event, ()):
            for handler in group["hooks"]:
                handler["timeout"] = min(handler["timeout"], cap)
    return out


def update_text(
    text: str, events, word: str, timeout, closed: bool = False, uninstall: bool = False, scope="project", also=()
) -> str:
    return hookfile.update(
        text, NAME, hook_entries(events, word, int(timeout), closed), grouped=True, uninstall=uninstall, also=also
    )


def protected_paths(project_dir: str, env) -> list[str]:
    """Codex's own files that decide which hooks run (self-protection keeps the agent off them)."""
    home = codex_home(env)
    return [
        os.path.join(project_dir, ".codex", "hooks.json"),
        os.path.join(project_dir, ".codex", "config.toml"),
        os.path.join(home, "hooks.json"),
        os.path.join(home, "config.toml"),
        os.path.join(home, "requirements.toml"),
    ]


def hook_events(compiled) -> tuple:
    """The events Cupcake hooks here, whatever the policies name."""
    return EVENTS


def hooks_in(text: str) -> list:
    """(event, command, timeout in seconds) of Cupcake's hooks in the file (ValueError: not JSON)."""
    return hookfile.commands_in(text, NAME, "command", "timeout", 1)


def notes(scope: str, root: str, env, trust: bool = False, **_options) -> list[str]:
    """Codex runs only hooks it trusts: with ``trust``, ask it to (ValueError when it cannot be asked);
    else say how."""
    from cupcake.agents.codex import trust as codex_trust

    if not trust:
        return [codex_trust.HOW]
    try:
        trusted = codex_trust.trust(root, env, project=scope == "project")
    except codex_trust.TrustError as exc:
        raise ValueError(f"the hooks were written, but Codex could not be asked to trust them: {exc}") from None
    return [
        f"Codex now trusts Cupcake's hooks ({len(trusted)} newly trusted)"
        + (" and this project." if scope == "project" else ".")
    ]


def doctor_findings(root: str, env, paths) -> list:
    """Codex skips untrusted hooks without a word: is there trust recorded for each file's hooks?"""
    from cupcake.agents.codex.trust import HOW

    try:
        with open(os.path.join(codex_home(env), "config.toml"), encoding="utf-8") as f:
            config = f.read()
    except (OSError, UnicodeDecodeError):
        config = ""
    found: list[tuple[str, str, str, str | None]] = []
    for path in paths:
        if f"{path}:pre_tool_use:" in config:
            found.append(
                (
                    "agent codex",
                    "ok",
                    "Codex: trust is recorded for Cupcake's hooks (a changed command needs it again)",
                    None,
                )
            )
        else:
            found.append(
                ("agent codex", "warning", "Codex: no trust recorded for Cupcake's hooks, so Codex skips them", HOW)
            )
    return found
