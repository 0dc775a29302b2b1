"""Factory droid (verified with the real client 0.225.2): a copy of Claude Code's hook contract
with tools of its own (Execute, Create, Edit, ApplyPatch, …); the model sees a deny as
``Error: <reason>``."""

from __future__ import annotations

from cupcake.agents.droid.capabilities import (
    ANSWER_CAP,
    CAPABILITIES,
    FILE_WRITE_TOOLS,
    PROJECT_DIR_ENV,
    SHELL_TOOLS,
    TOOLS,
    action_supported,
)
from cupcake.agents.droid.protocol import parse, render

NAME = "droid"

__all__ = [
    "NAME", "parse", "render", "CAPABILITIES", "TOOLS", "SHELL_TOOLS", "FILE_WRITE_TOOLS",
    "PROJECT_DIR_ENV", "ANSWER_CAP", "action_supported",
]  # fmt: skip
