"""OpenAI Codex CLI (verified with the real client 0.169.0): Claude Code's event names and wire
format, but Codex fails a hook whose answer holds a field it does not support, and on PreToolUse it
rejects ``allow`` and ``ask``: Cupcake can block there, never approve or ask."""

from __future__ import annotations

from cupcake.agents.codex.capabilities import (
    ANSWER_CAP,
    CAPABILITIES,
    FILE_WRITE_TOOLS,
    PROJECT_DIR_ENV,
    SHELL_TOOLS,
    TOOLS,
    action_supported,
)
from cupcake.agents.codex.protocol import parse, render

NAME = "codex"

__all__ = [
    "NAME", "parse", "render", "CAPABILITIES", "TOOLS", "SHELL_TOOLS", "FILE_WRITE_TOOLS",
    "PROJECT_DIR_ENV", "ANSWER_CAP", "action_supported",
]  # fmt: skip
