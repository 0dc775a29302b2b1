"""The Claude Code adapter: ``parse`` (payload -> canonical event), ``render`` (Response -> bytes and exit
code), its capability table, and ``install`` (the settings files ``sync`` and ``doctor`` use)."""

from __future__ import annotations

from cupcake.agents.claude import capabilities
from cupcake.agents.claude.capabilities import ANSWER_CAP, DISPLAY_NAME, NAME
from cupcake.agents.claude.parse import parse, project_dir
from cupcake.agents.claude.render import render

__all__ = ["ANSWER_CAP", "DISPLAY_NAME", "NAME", "capabilities", "parse", "project_dir", "render"]
