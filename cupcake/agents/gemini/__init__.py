"""Gemini CLI (verified with the real client 0.61.0): PascalCase events of its own (BeforeTool,
AfterTool, BeforeAgent, AfterAgent, …), snake_case tools (run_shell_command, write_file, replace,
…), and ``{"decision": "deny", "reason": …}`` answers; hook timeouts are in milliseconds."""

from __future__ import annotations

from cupcake.agents.gemini.capabilities import (
    ANSWER_CAP,
    CAPABILITIES,
    FILE_WRITE_TOOLS,
    PROJECT_DIR_ENV,
    SHELL_TOOLS,
    TOOLS,
    action_supported,
)
from cupcake.agents.gemini.protocol import parse, render

NAME = "gemini"

__all__ = [
    "NAME", "parse", "render", "CAPABILITIES", "TOOLS", "SHELL_TOOLS", "FILE_WRITE_TOOLS",
    "PROJECT_DIR_ENV", "ANSWER_CAP", "action_supported",
]  # fmt: skip
