"""The keys of a ``run_command`` action that shape how the command runs, checked and defaulted."""

from __future__ import annotations

import math
import os

from cupcake.run_command.errors import CommandSpecError

DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_OUTPUT = 65536


class CommandSpec:
    """A checked ``run_command`` action: every key present, defaults filled in."""

    __slots__ = ("command", "timeout", "working_dir", "env", "shell", "max_output")

    def __init__(self, command: str, timeout: float, working_dir: str, env: dict, shell: bool, max_output: int) -> None:
        self.command = command
        self.timeout = timeout
        self.working_dir = working_dir
        self.env = env
        self.shell = shell
        self.max_output = max_output


def spec_problems(spec: object) -> list[str]:
    """What is wrong with the keys other than the templates, as messages naming the key."""
    if not isinstance(spec, dict):
        return [f"a run_command action must be a table, got {type(spec).__name__}"]
    problems = []
    command = spec.get("command")
    if not isinstance(command, str) or not command.strip():
        problems.append("command: must be a non-empty string")
    elif "\x00" in command:
        problems.append("command: contains a NUL character")

    timeout = spec.get("timeout")
    if timeout is not None and (
        isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) or timeout <= 0
    ):
        problems.append(f"timeout: must be a positive number of seconds, got {timeout!r}")

    working_dir = spec.get("working_dir")
    if working_dir is not None:
        if not isinstance(working_dir, str) or "\x00" in working_dir:
            problems.append(f"working_dir: must be a path relative to the project root, got {working_dir!r}")
        elif os.path.isabs(working_dir):
            problems.append(f"working_dir: must be relative to the project root, got the absolute path {working_dir!r}")
        elif os.path.normpath(working_dir).split(os.sep)[0] == "..":
            problems.append(f"working_dir: {working_dir!r} leads outside the project root")

    env = spec.get("env")
    if env is not None:
        if not isinstance(env, dict):
            problems.append(f"env: must be a table of names to strings, got {type(env).__name__}")
        else:
            for key, value in env.items():
                if not isinstance(key, str) or not key or "=" in key or "\x00" in key:
                    problems.append(f"env: {key!r} is not a valid variable name")
                elif not isinstance(value, str) or "\x00" in value:
                    problems.append(f"env: the value of {key} must be a string, got {value!r}")

    shell = spec.get("shell")
    if shell is not None and not isinstance(shell, bool):
        problems.append(f"shell: must be true or false, got {shell!r}")

    max_output = spec.get("max_output")
    if max_output is not None and (isinstance(max_output, bool) or not isinstance(max_output, int) or max_output < 1):
        problems.append(f"max_output: must be a positive whole number of bytes, got {max_output!r}")
    return problems


def read_spec(spec: dict) -> CommandSpec:
    """The action as a ``CommandSpec``; ``CommandSpecError`` naming every problem when it is written wrongly."""
    problems = spec_problems(spec)
    if problems:
        raise CommandSpecError("; ".join(problems))
    timeout = spec.get("timeout")
    max_output = spec.get("max_output")
    shell = spec.get("shell")
    return CommandSpec(
        command=spec["command"],
        timeout=DEFAULT_TIMEOUT if timeout is None else float(timeout),
        working_dir=spec.get("working_dir") or ".",
        env=dict(spec.get("env") or {}),
        shell=False if shell is None else shell,
        max_output=DEFAULT_MAX_OUTPUT if max_output is None else max_output,
    )
