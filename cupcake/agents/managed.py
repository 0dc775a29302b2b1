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
# Everything else in an agent's managed folder that decides which hooks run (guarded like the file above).
ALSO_GUARDED = {
    "claude": (
        "/etc/claude-code/managed-settings.json",
        "/etc/claude-code/managed-settings.d",
        "/Library/Application Support/ClaudeCode/managed-settings.json",
        "/Library/Application Support/ClaudeCode/managed-settings.d",
    ),
    "codex": ("/etc/codex/config.toml", "/etc/codex/requirements.toml", "/etc/codex/hooks.json"),
    "gemini": ("/etc/gemini-cli/system-defaults.json",),
    "copilot": ("/etc/github-copilot/policy.d",),
}


def platform() -> str:
    return "darwin" if sys.platform == "darwin" else "win32" if sys.platform == "win32" else "linux"


def managed_path(agent: str, env) -> str | None:
    """Where ``agent`` reads its managed settings on this system (under the tests' stand-in root when
    they set one), or None when it has no such file here."""
    path = LOCATIONS.get(agent, {}).get(platform())
    return system_path(path, env) if path else None


def guarded_paths(agent: str, env) -> list[str]:
    """The agent's managed files and folders that self-protection keeps the agent off."""
    own = managed_path(agent, env)
    return [p for p in (own, *(system_path(x, env) for x in ALSO_GUARDED.get(agent, ()))) if p]
