"""OpenAI Codex CLI (verified with the real client 0.169.0): Claude Code's event names and wire
format, but Codex fails a hook whose answer holds a field it does not support, and on PreToolUse it
rejects ``allow`` and ``ask``: Cupcake can block there, never approve or ask."""

from __future__ import annotations

from cupcake.agents.codex.capabilities import (
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
from cupcake.agents.codex.protocol import parse, render
from cupcake.agents.common import project_dir_from

NAME = "codex"
DISPLAY_NAME = "Codex"


def project_dir(env) -> str | None:
    """The project directory Codex names in the hook's environment, or None."""
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
