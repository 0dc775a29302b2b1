"""Send a sample event through a hook command the way the agents do: ``sh -c <command>``, the event JSON
on stdin, in the project root with the agent's project-directory variable set; bounded in time and
output. And what a fresh login shell finds on its PATH (an agent started from the desktop or another
terminal has that PATH, not this shell's)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

SECONDS = 30
MAX_OUTPUT = 64 * 1024


class Outcome:
    """What the hook command did: exit code (None: timed out or could not start), output, time."""

    __slots__ = ("exit_code", "stdout", "stderr", "seconds", "error")

    def __init__(self, exit_code, stdout: str, stderr: str, seconds: float, error=None):
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr
        self.seconds = seconds
        self.error = error

    def as_dict(self) -> dict:
        return {
            "exit_code": self.exit_code,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "ms": round(self.seconds * 1000, 1),
            "error": self.error,
        }


def run_hook(command: str, root: str, env, payload: dict, project_dir_env=(), seconds: float = SECONDS) -> Outcome:
    """``project_dir_env``: the variables the agent names the project directory in (set to ``root``)."""
    environment = dict(env)
    environment.update(dict.fromkeys(project_dir_env, root))
    data = json.dumps(payload).encode()
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            ["/bin/sh", "-c", command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=root,
            env=environment,
            start_new_session=True,
        )
    except OSError as exc:
        return Outcome(None, "", "", time.monotonic() - started, f"could not start /bin/sh: {exc.strerror or exc}")
    try:
        out, err = process.communicate(data, timeout=seconds)
    except subprocess.TimeoutExpired:
        _kill(process)
        out, err = process.communicate()
        return Outcome(None, _text(out), _text(err), time.monotonic() - started, f"no answer within {seconds:g} s")
    return Outcome(process.returncode, _text(out), _text(err), time.monotonic() - started)


def _kill(process) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except OSError:
        process.kill()


def _text(data: bytes) -> str:
    return data[-MAX_OUTPUT:].decode("utf-8", "replace")


def version_of(executable: str, env, seconds: float = 10):
    """(version text, problem): what ``<executable> --version`` prints, bounded."""
    try:
        done = subprocess.run(
            [executable, "--version"], stdin=subprocess.DEVNULL, capture_output=True, env=dict(env), timeout=seconds
        )
    except subprocess.TimeoutExpired:
        return None, f"`{executable} --version` did not finish within {seconds:g} s"
    except OSError as exc:
        return None, f"`{executable} --version` could not start: {exc.strerror or exc}"
    out = _text(done.stdout).strip()
    if done.returncode != 0:
        detail = (_text(done.stderr).strip() or out).splitlines()[-1:] or [""]
        return None, f"`{executable} --version` failed (exit {done.returncode}): {detail[0]}"
    return out, None


def expand_project_dir(command: str, root: str, names=()) -> str:
    """``command`` with the agent's project-directory variables (``names``) replaced by ``root``."""
    for name in names:
        for placeholder in ("${" + name + "}", "$" + name):
            command = command.replace(placeholder, root)
    return command


def login_shell_finds(name: str, env, seconds: float = 10):
    """(path or None, problem or None): where a fresh login shell finds ``name`` (the user's ``$SHELL``,
    started with ``-l`` and nothing but HOME, USER, LOGNAME and SHELL from this environment: what a
    desktop-started agent or a new terminal gets from the profile files)."""
    shell = env.get("SHELL") or "/bin/sh"
    if not os.path.isabs(shell) or not os.access(shell, os.X_OK):
        shell = "/bin/sh"
    fresh = {k: env[k] for k in ("HOME", "USER", "LOGNAME", "SHELL") if env.get(k)}
    try:
        done = subprocess.run(
            [shell, "-l", "-c", 'command -v "$0"', name],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=fresh,
            cwd=fresh.get("HOME") or "/",
            timeout=seconds,
            start_new_session=True,
        )
    except subprocess.TimeoutExpired:
        return None, f"a login shell ({shell} -l) did not answer within {seconds:g} s"
    except OSError as exc:
        return None, f"a login shell ({shell} -l) could not start: {exc.strerror or exc}"
    lines = _text(done.stdout).strip().splitlines()
    found = lines[-1] if done.returncode == 0 and lines else ""
    return (found if found.startswith("/") else None), None
