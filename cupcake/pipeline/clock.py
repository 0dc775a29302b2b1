"""The run's deadline as a real-time alarm: a system still running when it passes is interrupted."""

from __future__ import annotations

import time

import _signal  # the C module: ``signal`` wraps it in enums, which cost milliseconds per run

from cupcake.errors import DeadlineExceeded


class AlarmClock:
    def __init__(self, seconds_total: float | None = None):
        self.seconds_total = seconds_total

    def arm(self, deadline) -> None:
        if deadline is None:
            return
        _signal.signal(_signal.SIGALRM, self._ring)
        _signal.setitimer(_signal.ITIMER_REAL, max(0.001, deadline - time.monotonic()))

    def disarm(self) -> None:
        _signal.setitimer(_signal.ITIMER_REAL, 0)

    @staticmethod
    def _ring(signum, frame):
        raise DeadlineExceeded("ran past the run's deadline (hook_timeout_seconds minus 5 s)")
