"""Gemini CLI (verified with the real client 0.61.0): PascalCase events of its own (BeforeTool,
AfterTool, BeforeAgent, AfterAgent, …), snake_case tools (run_shell_command, write_file, replace,
…), and ``{"decision": "deny", "reason": …}`` answers; hook timeouts are in milliseconds."""

from __future__ import annotations

from cupcake.agents.common import project_dir_from
from cupcake.agents.gemini.capabilities import (
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
from cupcake.agents.gemini.protocol import parse, render

NAME = "gemini"
DISPLAY_NAME = "Gemini CLI"


def project_dir(env) -> str | None:
    """The project directory Gemini CLI names in the hook's environment, or None."""
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
