"""Where Codex's hooks live and what Cupcake writes there. Codex loads project hooks only in a
trusted project, and skips every hook not trusted by hash (silently): ``trust.trust_project`` writes the
first; the second is done in Codex (``/hooks``, or app-server ``hooks/list`` + ``config/batchWrite``)."""

from __future__ import annotations

import os

from cupcake.agents import hookfile
from cupcake.agents.codex.capabilities import CAPABILITIES
from cupcake.agents.codex.home import codex_home
from cupcake.agents.hookfile import no_findings as file_findings  # noqa: F401
from cupcake.agents.hookfile import no_own_sandbox as own_sandbox_on  # noqa: F401
from cupcake.agents.hookfile import no_settings_dirs as settings_dirs  # noqa: F401
from cupcake.agents.hookfile import nothing_to_protect as protect  # noqa: F401 (the installer interface)
from cupcake.agents.hookfile import nothing_to_unprotect as unprotect  # noqa: F401

# What `cupcake sync` may do here besides the hooks: ask Codex to trust them (``trust``), and the OS layer,
# Cupcake's jail (``--sandbox`` turns it on, as ``--jail`` does: Codex's own sandbox cannot hold it).
OPTIONS = frozenset({"trust", "sandbox", "jail"})
SANDBOX = "jail"
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


def doctor_findings(root: str, env, paths, jail: str = "") -> list:
    """Codex skips untrusted hooks without a word: is there trust recorded for each file's hooks? And,
    with the jail on, is Codex's own sandbox (which cannot hold it) off?"""
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
    if jail:
        found.extend(_sandbox_in_the_way(root, env))
    return found


def _sandbox_in_the_way(root: str, env) -> list:
    """Codex's own sandbox on (workspace-write or read-only) cannot hold the jail: every jailed command
    would be refused."""
    from cupcake.agents.codex import sandbox

    mode, where = sandbox.in_effect(root, env)
    if not mode or mode == sandbox.VALUE:
        return []
    return [
        (
            "os layer codex",
            "problem",
            f'Codex: its own sandbox is on (sandbox_mode = "{mode}" in {where}): Cupcake\'s jail cannot start '
            "inside it, so every shell call would be refused",
            "run `cupcake sync --agent codex --sandbox` (it turns Codex's sandbox off where the jail replaces it)",
        )
    ]


class _SandboxSetting:
    """Codex's own sandbox setting in the scope's ``config.toml``, turned off where Cupcake's jail
    replaces it (it cannot hold the jail), and put back when the jail goes (``sandbox``)."""

    def __init__(self, path: str, old: str, new: str, replaced, on: bool):
        self.path, self.old, self.new, self.replaced, self.on = path, old, new, replaced, on

    def ignored(self, root: str) -> list[str]:
        """What it leaves beside a project's file, for git to ignore: the backup and the record."""
        from cupcake.agents.codex import sandbox

        if not self.path.startswith(root.rstrip("/") + "/"):
            return []
        rel = os.path.relpath(self.path, root)
        return [rel + ".bak", os.path.join(os.path.dirname(rel), sandbox.RECORD)]

    def shown(self) -> tuple[str, str | None, str]:
        """(path, text before or None, text after): for a dry run's diff."""
        return self.path, self.old or None, self.new

    def apply(self) -> str:
        """Write it; what to tell the person (``{file}``: the file, as sync names it)."""
        from cupcake.agents.codex import sandbox

        sandbox.write(self.path, self.new, self.replaced, turning_off=self.on)
        if self.on:
            return "Turned Codex's own sandbox off in {file}."
        return "Put Codex's own sandbox setting back in {file}."


def os_layer(scope: str, root: str, env, on: bool):
    """What the OS layer changes here beside the hooks (Codex's own sandbox setting), or None."""
    from cupcake.agents.codex import sandbox

    path = sandbox.config_path(scope, root, env)
    old = sandbox.read(path)
    if on:
        new, replaced = sandbox.turned_off(old)
        return _SandboxSetting(path, old, new, replaced, True) if new != old else None
    record = sandbox.recorded(path)
    new = sandbox.restored(old, record["replaced"] if record else None)
    return _SandboxSetting(path, old, new, None, False) if new != old else None


def jail_notes(jail_dirs=()) -> list[str]:
    """What the person should know once the jail is on for Codex."""
    from cupcake.agents.codex import sandbox

    return [sandbox.TRADE]


def transcript_dirs(env) -> list[str]:
    """Where Codex keeps its session transcripts (``$CODEX_HOME/sessions``): they hold what the person was shown,
    approval codes included, so no tool of the agent may read them."""
    return [os.path.join(codex_home(env), "sessions")]
