"""Where Claude Code keeps its hook settings, per scope, and which of its files self-protection guards.
``sync`` edits these files in place (``hook_entries``, ``hook_edit``, ``settings_file``)."""

from __future__ import annotations

import os

from cupcake.agents.claude.capabilities import USER_DIR

NAME = "claude"
SCOPES = {
    "project": os.path.join(USER_DIR, "settings.json"),
    "local": os.path.join(USER_DIR, "settings.local.json"),
    "user": os.path.join("~", USER_DIR, "settings.json"),
}


def home_of(env) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def config_path(scope: str, project_dir: str, env) -> str:
    if scope == "user":
        return os.path.join(home_of(env), USER_DIR, "settings.json")
    return os.path.join(project_dir, SCOPES[scope])


def settings_dirs(project_dir: str, env) -> list[str]:
    """The directories holding Claude Code's settings: the project's and the user's ``.claude``."""
    return [os.path.join(project_dir, USER_DIR), os.path.join(home_of(env), USER_DIR)]


def protected_paths(project_dir: str, env) -> list[str]:
    """Claude Code's own settings files (the hooks live there), project and user."""
    return [
        os.path.join(base, name)
        for base in settings_dirs(project_dir, env)
        for name in ("settings.json", "settings.local.json")
    ]
