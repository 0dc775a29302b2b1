"""GitHub Copilot CLI (verified with the real client 1.0.102): camelCase events and fields,
``toolName``/``toolArgs`` (an object in 1.0.102, a JSON string per its docs: both are read), and a
flat ``permissionDecision`` answer. Exit 2 denies but shows the model no reason, so Cupcake
always answers in JSON."""

from __future__ import annotations

from cupcake.agents.common import project_dir_from
from cupcake.agents.copilot.capabilities import (
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
from cupcake.agents.copilot.protocol import parse, render

NAME = "copilot"
DISPLAY_NAME = "Copilot CLI"


def project_dir(env) -> str | None:
    """The project directory Copilot CLI names in the hook's environment, or None."""
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
