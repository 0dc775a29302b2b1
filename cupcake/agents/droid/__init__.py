"""Factory droid (verified with the real client 0.225.2): a copy of Claude Code's hook contract
with tools of its own (Execute, Create, Edit, ApplyPatch, …); the model sees a deny as
``Error: <reason>``."""

from __future__ import annotations

from cupcake.agents.common import project_dir_from
from cupcake.agents.droid.capabilities import (
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
from cupcake.agents.droid.protocol import parse, render

NAME = "droid"
DISPLAY_NAME = "Factory droid"


def project_dir(env) -> str | None:
    """The project directory Factory droid names in the hook's environment, or None."""
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
