"""Fixtures for the layers of each agent: a project, a home and a system root (for managed files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cupcake.agents.event import Event


class Machine:
    def __init__(self, base: Path):
        self.root = base / "project"
        self.home = base / "home"
        self.system = base / "system"
        for d in (self.root, self.home, self.system):
            d.mkdir()

    @property
    def env(self) -> dict:
        return {"HOME": str(self.home)}

    def write(self, where: str, text) -> Path:
        """``~/x``: under home; ``/x``: under the system root; else under the project."""
        if where.startswith("~/"):
            path = self.home / where[2:]
        elif where.startswith("/"):
            path = self.system / where[1:]
        else:
            path = self.root / where
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text if isinstance(text, str) else json.dumps(text))
        return path

    def bash(self, command: str, agent: str = "claude") -> Event:
        return Event(
            "PreToolUse", {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(self.root)}, agent
        )

    def tool(self, tool: str, tool_input: dict, agent: str = "claude") -> Event:
        return Event("PreToolUse", {"tool_name": tool, "tool_input": tool_input, "cwd": str(self.root)}, agent)

    def decide(self, agent: str, event, cupcake: str = "allow", by=None):
        from cupcake.effective import view

        found = view(agent, event, str(self.root), self.env, cupcake, by, "", None, str(self.system))
        eff = found["effective"]
        winner = eff["winner"]
        return eff["decision"], (winner["kind"], winner["where"]) if winner else None, found


@pytest.fixture
def machine(tmp_path) -> Machine:
    return Machine(tmp_path)
