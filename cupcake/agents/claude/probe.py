"""Send a sample event through a hook command the way Claude Code does: ``sh -c <command>``, the
event JSON on stdin, in the project root with ``CLAUDE_PROJECT_DIR`` set; bounded in time and output."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

from cupcake.agents.claude.capabilities import PROJECT_DIR_ENV

SECONDS = 30
MAX_OUTPUT = 64 * 1024


def sample_event(root: str) -> dict:
    """A harmless PreToolUse: the agent asks to run `echo`."""
    return {
        "session_id": "cupcake-doctor",
        "transcript_path": "",
        "cwd": root,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "echo cupcake doctor", "description": "cupcake doctor's sample event"},
        "tool_use_id": "toolu_cupcake_doctor",
    }


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


def run_hook(command: str, root: str, env, payload: dict, seconds: float = SECONDS) -> Outcome:
    environment = dict(env)
    environment["CLAUDE_PROJECT_DIR"] = root
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


def read_answer(answer) -> tuple[str | None, str, str]:
    """(permission decision or None, its reason, the user-visible message) of a PreToolUse answer."""
    if not isinstance(answer, dict):
        return None, "", ""
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision = specific.get("permissionDecision")
    return (
        decision if isinstance(decision, str) and decision else None,
        str(specific.get("permissionDecisionReason", "")),
        str(answer.get("systemMessage", "")),
    )


def expand_project_dir(command: str, root: str) -> str:
    """``command`` with Claude Code's project-directory variable replaced by ``root``."""
    for name in PROJECT_DIR_ENV:
        for placeholder in ("${" + name + "}", "$" + name):
            command = command.replace(placeholder, root)
    return command
