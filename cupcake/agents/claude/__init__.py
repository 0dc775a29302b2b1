"""Claude Code: the adapter (``parse``, ``render``, what it can honour) and its settings files
(``hook_entries``, ``hook_edit``, ``settings_file``, ``probe``: what ``sync`` and ``doctor`` use)."""

from __future__ import annotations

from cupcake.agents.claude.capabilities import (
    ANSWER_CAP,
    CAPABILITIES,
    DISPLAY_NAME,
    FILE_WRITE_TOOLS,
    NAME,
    OS_LAYER,
    PROJECT_DIR_ENV,
    REWRITE,
    SHELL_TOOLS,
    TOOLS,
    USER_CHANNEL,
    USER_CHANNEL_SEEN,
    action_supported,
)
from cupcake.agents.claude.parse import parse, project_dir
from cupcake.agents.claude.render import render

__all__ = [
    "ANSWER_CAP",
    "USER_CHANNEL",
    "USER_CHANNEL_SEEN",
    "CAPABILITIES",
    "DISPLAY_NAME",
    "FILE_WRITE_TOOLS",
    "NAME",
    "OS_LAYER",
    "PROJECT_DIR_ENV",
    "REWRITE",
    "SHELL_TOOLS",
    "TOOLS",
    "action_supported",
    "parse",
    "project_dir",
    "render",
]
