"""Running the agent: argv (never a shell), the prompt on stdin, output kept in temporary files and
read back bounded, its own process group, stopped whole at the time limit or on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile

MAX_OUTPUT = 4 * 1024 * 1024  # bytes of each stream read back


class Finished:
    __slots__ = ("exit_code", "stdout", "stderr", "timed_out", "not_started")

    def __init__(self, exit_code=None, stdout="", stderr="", timed_out=False, not_started=None):
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out
        self.not_started = not_started  # why it could not start, or None


def run_process(argv: list[str], stdin_text: str | None, *, cwd: str, env: dict, timeout: float) -> Finished:
    with tempfile.TemporaryDirectory(prefix="cupcake-init-") as scratch:
        paths = {name: os.path.join(scratch, name) for name in ("stdin", "stdout", "stderr")}
        with open(paths["stdin"], "w", encoding="utf-8") as f:
            f.write(stdin_text or "")
        with (
            open(paths["stdin"], "rb") as stdin,
            open(paths["stdout"], "wb") as out,
            open(paths["stderr"], "wb") as err,
        ):
            try:
                proc = subprocess.Popen(
                    argv,
                    cwd=cwd,
                    env=env,
                    stdin=stdin,
                    stdout=out,
                    stderr=err,
                    start_new_session=True,
                    close_fds=True,
                )
            except OSError as exc:
                return Finished(not_started=f"{argv[0]}: {exc.strerror or exc}")
            timed_out = False
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                _stop_group(proc)
        return Finished(
            None if timed_out else proc.returncode, _tail(paths["stdout"]), _tail(paths["stderr"]), timed_out
        )


def _stop_group(proc) -> None:
    """Whatever the agent left running in its group is stopped; the agent itself is reaped."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except OSError:  # the group is gone: nothing was left running
        proc.wait()
        return
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()


def _tail(path: str) -> str:
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        if size > MAX_OUTPUT:
            f.seek(size - MAX_OUTPUT)
        data = f.read(MAX_OUTPUT)
    return data.decode("utf-8", errors="replace")
