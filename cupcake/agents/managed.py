"""Where each agent reads its managed (organisation-wide) or system settings, as each one documents it:
where `cupcake sync --scope managed` writes Cupcake's hooks, and what self-protection guards besides.

| agent | Linux | macOS | Windows (documented; Cupcake runs on Linux and macOS) | the file |
|---|---|---|---|---|
| Claude Code | /etc/claude-code/managed-settings.d/cupcake.json | /Library/Application Support/ClaudeCode/managed-settings.d/cupcake.json | C:\\Program Files\\ClaudeCode\\managed-settings.d\\cupcake.json | Cupcake's own drop-in, beside managed-settings.json |
| Codex | /etc/codex/hooks.json | /etc/codex/hooks.json | — (none documented) | the system layer's hooks.json, edited in place |
| Gemini CLI | /etc/gemini-cli/settings.json | /Library/Application Support/GeminiCli/settings.json | C:\\ProgramData\\gemini-cli\\settings.json | the system settings that override all others, edited in place |
| Copilot CLI | /etc/github-copilot/policy.d/cupcake.json | /etc/github-copilot/policy.d/cupcake.json | C:\\ProgramData\\GitHub\\Copilot\\policy.d\\cupcake.json | Cupcake's own policy hook file (root-owned, not group- or world-writable, or Copilot skips it) |
| droid | /etc/factory/settings.json | /Library/Application Support/Factory/settings.json | — | the system-managed settings, edited in place |
| Cursor | /etc/cursor/hooks.json | /Library/Application Support/Cursor/hooks.json | C:\\ProgramData\\Cursor\\hooks.json | the enterprise hooks file, edited in place |

Every agent but one says which file to use; droid's system-managed settings.json takes the organisation's
settings, whose ``hooks`` its documentation describes for the dashboard's Hooks Policy: Cupcake writes the
same ``hooks`` key there (not seen in the real client).
"""

from __future__ import annotations

import sys

from cupcake.project import system_path

# agent -> (platform -> the file), whether the file is Cupcake's alone, and what the agent needs besides
LOCATIONS: dict[str, dict] = {
    "claude": {
        "linux": "/etc/claude-code/managed-settings.d/cupcake.json",
        "darwin": "/Library/Application Support/ClaudeCode/managed-settings.d/cupcake.json",
        "win32": "C:\\Program Files\\ClaudeCode\\managed-settings.d\\cupcake.json",
    },
    "codex": {"linux": "/etc/codex/hooks.json", "darwin": "/etc/codex/hooks.json", "win32": None},
    "gemini": {
        "linux": "/etc/gemini-cli/settings.json",
        "darwin": "/Library/Application Support/GeminiCli/settings.json",
        "win32": "C:\\ProgramData\\gemini-cli\\settings.json",
    },
    "copilot": {
        "linux": "/etc/github-copilot/policy.d/cupcake.json",
        "darwin": "/etc/github-copilot/policy.d/cupcake.json",
        "win32": "C:\\ProgramData\\GitHub\\Copilot\\policy.d\\cupcake.json",
    },
    "droid": {
        "linux": "/etc/factory/settings.json",
        "darwin": "/Library/Application Support/Factory/settings.json",
        "win32": None,
    },
    "cursor": {
        "linux": "/etc/cursor/hooks.json",
        "darwin": "/Library/Application Support/Cursor/hooks.json",
        "win32": "C:\\ProgramData\\Cursor\\hooks.json",
    },
}
OWN_FILE = frozenset({"claude", "copilot"})  # a drop-in that holds Cupcake's hooks and nothing else
ROOT_OWNED = frozenset({"copilot"})  # skipped by the agent unless owned by root and not group/world-writable
# The folders that hold each agent's managed settings, guarded whole (self-protection keeps the agent out of
# them, and the jail binds them read-only when they exist and never creates one): everything in them decides
# which hooks run (Codex's requirements.toml, Gemini CLI's system-defaults.json, Claude Code's
# managed-settings.json beside Cupcake's drop-in …).
GUARDED_DIRS = {
    "linux": {
        "claude": "/etc/claude-code",
        "codex": "/etc/codex",
        "gemini": "/etc/gemini-cli",
        "copilot": "/etc/github-copilot",
        "droid": "/etc/factory",
        "cursor": "/etc/cursor",
    },
    "darwin": {
        "claude": "/Library/Application Support/ClaudeCode",
        "codex": "/etc/codex",
        "gemini": "/Library/Application Support/GeminiCli",
        "copilot": "/etc/github-copilot",
        "droid": "/Library/Application Support/Factory",
        "cursor": "/Library/Application Support/Cursor",
    },
}


def platform() -> str:
    return "darwin" if sys.platform == "darwin" else "win32" if sys.platform == "win32" else "linux"


def managed_path(agent: str, env) -> str | None:
    """Where ``agent`` reads its managed settings on this system (under the tests' stand-in root when
    they set one), or None when it has no such file here."""
    path = LOCATIONS.get(agent, {}).get(platform())
    return system_path(path, env) if path else None


def guarded_paths(agent: str, env) -> list[str]:
    """The folder of the agent's managed settings (self-protection keeps the agent out of it)."""
    folder = GUARDED_DIRS.get(platform(), {}).get(agent)
    return [system_path(folder, env)] if folder else []
