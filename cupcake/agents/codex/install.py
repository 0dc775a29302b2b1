"""Where Codex's hooks live and what Cupcake writes there. Codex loads project hooks only in a
trusted project, and skips every hook not trusted by hash (silently): ``trust_project`` writes the
first; the second is done in Codex (``/hooks``, or app-server ``hooks/list`` + ``config/batchWrite``)."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.codex.capabilities import CAPABILITIES

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


def codex_home(env) -> str:
    return (env or {}).get("CODEX_HOME") or os.path.join(hookfile.home_of(env), ".codex")


def config_path(scope: str, project_dir: str, env) -> str:
    if scope == "user":
        return os.path.join(codex_home(env), "hooks.json")
    return os.path.join(project_dir, SCOPES["project"])


SHORT_EVENTS = {"SessionEnd": 3, "Interrupt": 3}  # Codex caps these hooks' timeout (and says so on every run)


def hook_entries(events, word: str, timeout: int, closed: bool = False, jail: str = "") -> dict:
    out = hookfile.entries(
        NAME,
        events,
        CAPABILITIES,
        word,
        grouped=True,
        closed=closed,
        jail=jail,
        handler=lambda command: {"type": "command", "command": command, "timeout": timeout},
        matcher=lambda event: ".*" if event in TOOL_EVENTS else None,
    )
    for event, cap in SHORT_EVENTS.items():
        for group in out.get(event, ()):
            for handler in group["hooks"]:
                handler["timeout"] = min(handler["timeout"], cap)
    return out


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
    """Codex's own files that decide which hooks run (self-protection keeps the agent off them)."""
    home = codex_home(env)
    return [
        os.path.join(project_dir, ".codex", "hooks.json"),
        os.path.join(project_dir, ".codex", "config.toml"),
        os.path.join(home, "hooks.json"),
        os.path.join(home, "config.toml"),
        os.path.join(home, "requirements.toml"),
    ]


def trust_project(config_text: str, project_dir: str) -> str:
    """``config.toml`` with ``[projects."<dir>"] trust_level = "trusted"`` (unchanged when present)."""
    quoted = '"' + project_dir.replace("\\", "\\\\").replace('"', '\\"') + '"'
    header = f"[projects.{quoted}]"
    if header in config_text:
        return config_text
    sep = "" if not config_text or config_text.endswith("\n\n") else ("\n" if config_text.endswith("\n") else "\n\n")
    return f'{config_text}{sep}{header}\ntrust_level = "trusted"\n'
