"""Fixtures for running Cupcake inside the real Claude Code client (features/real_client.feature)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .claude_client import ClientUnavailable, Sandbox, ensure_claude_client, find_cupcake

IN_CI = os.environ.get("CI", "").lower() == "true"


def _unavailable(reason: str) -> None:
    """Skip on a developer's machine; in CI a missing client is a failure, never a skip."""
    if IN_CI:
        pytest.fail(f"CI=true: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def claude_client() -> Path:
    """The pinned `claude` executable, installed once into the user's cache."""
    try:
        return ensure_claude_client()
    except ClientUnavailable as exc:
        _unavailable(f"Claude Code client unavailable: {exc}")


@pytest.fixture(scope="session")
def cupcake_executable() -> Path:
    cupcake = find_cupcake()
    if cupcake is None:
        _unavailable("no `cupcake` executable beside the Python interpreter or on PATH: install the project first")
    return cupcake


@pytest.fixture
def sandbox(tmp_path: Path, claude_client: Path, cupcake_executable: Path) -> Sandbox:
    """A throwaway project, HOME and outside directory; Cupcake is the hook on every event."""
    root = tmp_path.resolve()  # the client reports resolved paths (macOS: /var -> /private/var)
    dirs = {name: root / name for name in ("project", "home", "outside")}
    for directory in dirs.values():
        directory.mkdir()
    return Sandbox(claude_client, **dirs, cupcake=cupcake_executable, hook_executable=str(cupcake_executable))
