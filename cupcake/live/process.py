"""Run an agent's process bounded in time: in its own process group, the whole group killed at the
time-out and whatever it left running in the background killed when it ends."""

from __future__ import annotations

import os
import signal
import subprocess


def run_bounded(command: list[str], cwd, env: dict[str, str], timeout: float) -> tuple[int | None, str, str]:
    """(exit code, or None when killed at the time-out; stdout; stderr)."""
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        returncode: int | None = process.returncode
    except subprocess.TimeoutExpired:
        kill_group(process.pid)
        stdout, stderr = process.communicate()
        return None, stdout, stderr + f"\n[killed after {timeout:g} s]"
    kill_group(process.pid)
    return returncode, stdout, stderr


def kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
