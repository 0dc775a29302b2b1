"""The run's deadline as a real-time alarm: a system still running when it passes is interrupted.

The first ring raises ``DeadlineExceeded`` in whatever runs. Around custom systems the runner arms
the alarm with ``repeat``: while a custom system's own code runs (``custom_running``), it is rung
again every ``REPEAT`` seconds with ``DeadlinePassed``, which ``except Exception`` does not catch.
``last_resort``, when given, is called by a ring that comes ``GRACE`` seconds after the deadline
into a custom system that still will not stop: the caller answers and exits rather than let the
hook time out in silence."""

from __future__ import annotations

import time

from cupcake import speedups
from cupcake.errors import DeadlineExceeded, DeadlinePassed

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import FrameType

REPEAT = 0.25
GRACE = 1.0
MESSAGE = "ran past the run's deadline (hook_timeout_seconds minus 5 s)"

# Set by the custom-system fence while an integrator's code (not Cupcake's) is running.
custom_running = False


class AlarmClock:
    def __init__(self, seconds_total: float | None = None, last_resort: Callable[[], object] | None = None) -> None:
        self.seconds_total = seconds_total
        self.last_resort = last_resort
        self.deadline: float | None = None
        self.rung = False

    def arm(self, deadline: float | None, repeat: bool = False) -> None:
        if deadline is None:
            return
        if deadline != self.deadline:
            self.deadline = deadline
            self.rung = False
        speedups.set_alarm(self._ring, max(0.001, deadline - time.monotonic()), REPEAT if repeat else 0)

    def disarm(self) -> None:
        speedups.clear_alarm()

    def _ring(self, signum: int, frame: FrameType | None) -> None:
        if not self.rung:
            self.rung = True
            raise DeadlineExceeded(MESSAGE)
        if not custom_running:
            return  # a repeat between custom systems: Cupcake's own code is not to be interrupted
        if self.last_resort is not None and self.deadline is not None and time.monotonic() > self.deadline + GRACE:
            self.disarm()
            self.last_resort()
        raise DeadlinePassed(MESSAGE)
