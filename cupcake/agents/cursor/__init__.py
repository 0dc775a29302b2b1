"""Cursor (documented only: its CLI is not in the package registries, so nothing here was seen in
a real client): camelCase events, several of them before-tool events with their own shapes
(beforeShellExecution, beforeReadFile, beforeMCPExecution, preToolUse), ``workspace_roots``, and
``permission``/``user_message``/``agent_message`` answers."""

from __future__ import annotations

from cupcake.agents.common import project_dir_from
from cupcake.agents.cursor.capabilities import (
    ANSWER_CAP,
    CAPABILITIES,
    FILE_WRITE_TOOLS,
    OS_LAYER,
    PROJECT_DIR_ENV,
    REWRITE,
    SHELL_TOOLS,
    TOOLS,
    USER_CHANNEL,
    USER_CHANNEL_SEEN,
    action_supported,
)
from cupcake.agents.cursor.protocol import parse, render

NAME = "cursor"
DISPLAY_NAME = "Cursor"


def project_dir(env) -> str | None:
    """The project directory Cursor names in the hook's environment, or None."""
    return project_dir_from(env, PROJECT_DIR_ENV)


__all__ = [
    "NAME",
    "DISPLAY_NAME",
    "project_dir",
    "parse",
    "render",
    "CAPABILITIES",
    "TOOLS",
    "SHELL_TOOLS",
    "FILE_WRITE_TOOLS",
    "OS_LAYER",
    "PROJECT_DIR_ENV",
    "REWRITE",
    "ANSWER_CAP",
    "USER_CHANNEL",
    "USER_CHANNEL_SEEN",
    "action_supported",
]
