"""What running a command produced."""

from __future__ import annotations


class CommandResult:
    """The outcome of one ``run_command``.

    ``ok`` is true only for exit code 0 within the time limit. ``exit_code`` is ``None`` when the command
    timed out or did not start; negative when a signal ended it (``-11``: SIGSEGV). ``stdout`` and
    ``stderr`` are the tails of the streams (a note first when cut). ``error`` says why it did not start
    or, for a command that finished, what else happened (processes left behind were stopped).
    """

    __slots__ = (
        "command",
        "argv",
        "executable",
        "cwd",
        "pid",
        "exit_code",
        "timed_out",
        "not_started",
        "error",
        "stdout",
        "stderr",
        "duration",
        "timeout",
    )

    def __init__(
        self,
        command: str,
        argv: list[str],
        *,
        executable: str | None = None,
        cwd: str | None = None,
        pid: int | None = None,
        exit_code: int | None = None,
        timed_out: bool = False,
        not_started: bool = False,
        error: str | None = None,
        stdout: str = "",
        stderr: str = "",
        duration: float = 0.0,
        timeout: float = 0.0,
    ) -> None:
        self.command = command  # the policy's command string, as written
        self.argv = argv  # what the child received as its arguments (argv[0] as written)
        self.executable = executable  # the file executed, once found
        self.cwd = cwd
        self.pid = pid  # also the id of the command's process group
        self.exit_code = exit_code
        self.timed_out = timed_out
        self.not_started = not_started
        self.error = error
        self.stdout = stdout
        self.stderr = stderr
        self.duration = duration  # seconds
        self.timeout = timeout  # the limit applied: min(timeout, time left before the deadline)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out and not self.not_started

    def to_dict(self) -> dict:
        """Plain data for the audit log."""
        data = {name: getattr(self, name) for name in self.__slots__}
        data["ok"] = self.ok
        return data

    def __repr__(self) -> str:
        state = (
            "ok"
            if self.ok
            else "timed out"
            if self.timed_out
            else "not started"
            if self.not_started
            else f"exit {self.exit_code}"
        )
        return f"<CommandResult {self.command!r} {state} in {self.duration:.3f}s>"
