"""Fixtures for running other agents' real CLIs: each pinned client installed once per test session."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from .install import PINS, AgentUnavailable, ensure_agent
from .sessions import AgentSession, make_session

IN_CI = os.environ.get("CI", "").lower() == "true"
AGENTS = tuple(PINS)  # gemini, codex, copilot, droid

# Per pytest process: the executable or the reason it is unavailable, and how long getting it took.
_installed: dict[str, Path | str] = {}
INSTALL_SECONDS: dict[str, float] = {}


def _unavailable(reason: str) -> None:
    """Skip on a developer's machine; in CI a missing client is a failure, never a skip."""
    if IN_CI:
        pytest.fail(f"CI=true: {reason}", pytrace=False)
    pytest.skip(reason)


def agent_executable(agent: str) -> Path:
    """The pinned executable of ``agent``, installed into the cache at most once per test session."""
    if agent not in _installed:
        started = time.monotonic()
        try:
            _installed[agent] = ensure_agent(PINS[agent])
        except AgentUnavailable as exc:
            _installed[agent] = f"{agent} client unavailable: {exc}"
        INSTALL_SECONDS[agent] = time.monotonic() - started
    found = _installed[agent]
    if isinstance(found, str):
        _unavailable(found)
    return found


@pytest.fixture
def agent_session(tmp_path: Path) -> Callable[..., AgentSession]:
    """``agent_session("codex")``: a fresh session (throwaway HOME and project) of that agent."""

    def make(agent: str, **options) -> AgentSession:
        return make_session(agent, agent_executable(agent), tmp_path / agent, **options)

    return make
