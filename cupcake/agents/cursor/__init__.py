"""Cursor (documented only: its CLI is not in the package registries, so nothing here was seen in
a real client): camelCase events, several of them before-tool events with their own shapes
(beforeShellExecution, beforeReadFile, beforeMCPExecution, preToolUse), ``workspace_roots``, and
``permission``/``user_message``/``agent_message`` answers."""

from __future__ import annotations

from cupcake.agents.cursor.capabilities import (
    ANSWER_CAP,
    CAPABILITIES,
    FILE_WRITE_TOOLS,
    PROJECT_DIR_ENV,
    SHELL_TOOLS,
    TOOLS,
    action_supported,
)
from cupcake.agents.cursor.protocol import parse, render

NAME = "cursor"

__all__ = [
    "NAME", "parse", "render", "CAPABILITIES", "TOOLS", "SHELL_TOOLS", "FILE_WRITE_TOOLS",
    "PROJECT_DIR_ENV", "ANSWER_CAP", "action_supported",
]  # fmt: skip
