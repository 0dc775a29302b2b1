"""The fence around a custom system: whatever it does, the run keeps its guarantees.

A ``Guarded`` system runs an integrator's system and then checks what it changed:

- it may add feedback, context and warnings, and make a hard decision stricter;
- it may never remove or rewrite what earlier systems found, loosen a decision (a block stays
  the same block), touch the fields that belong to Cupcake (the event, the policies, fail_mode,
  the deadline, the failures), set the answer before it is prepared (600), replace a prepared
  answer with anything but a block, or change anything but warnings once the answer is sealed (700);
- ``should_process`` must return a bool and ``process`` must return None.

Anything else is undone and recorded as the system's failure. A system that raises has its
changes undone too. While it runs, what it prints goes to stderr: stdout carries the answer.
"""

from __future__ import annotations

import sys
import time

from cupcake import lean_os as os
from cupcake import speedups
from cupcake.errors import CupcakeError, DeadlineExceeded, DeadlinePassed
from cupcake.pipeline import clock
from cupcake.pipeline.context import HardDecision
from cupcake.pipeline.order import SEALED_AFTER, Stage
from cupcake.pipeline.response import BLOCK, HARD_RANK, Response

# Fields a custom system reads but never changes (compared by identity, or by value for plain data).
_OWNED = (
    "raw",
    "event_arg",
    "event",
    "payload",
    "env",
    "options",
    "root",
    "configured",
    "policies",
    "settings",
    "fail_mode",
    "deadline",
    "envelope",
    "rendered_warnings",
    "sealed",
)
_FIXED_LISTS = (
    "matched",
    "failures",
    "other_blocks",
    "standing",
)  # only Cupcake's own systems and the runner write these
_GROWING_LISTS = ("soft", "contexts", "warnings")  # append-only, str items
_RESPONSE_FIELDS = Response.__slots__

# The real stdout while a custom system runs with fd 1 pointing at stderr (see ``answer_fd``),
# and what that system found (see ``undo_running``).
_saved_stdout = None
_running = None


def answer_fd() -> int:
    """The file descriptor the answer must be written to, even from inside a custom system."""
    return _saved_stdout if _saved_stdout is not None else 1


def undo_running(ctx) -> None:
    """Undo what the custom system running now has changed (before answering without it)."""
    if _running is not None:
        _running.restore(ctx)


class GuardViolation(CupcakeError):
    """A custom system did something it may not; its changes were undone."""


class Guarded:
    """A configured custom system, as the plan runs it."""

    custom = True

    def __init__(self, system, name: str, order: int, origin: str = ""):
        self.system = system
        self.name = name
        self.order = order
        self.origin = origin
        for attr, value in (("name", name), ("order", order)):  # what the configuration says it is
            try:
                setattr(system, attr, value)
            except Exception:  # slotted or frozen: it keeps its own
                pass
        decides = getattr(system, "decides", True)
        self.decides = decides if isinstance(decides, bool) else True

    def __repr__(self) -> str:
        return f"Guarded({self.name!r}, {self.order})"

    def should_process(self, ctx) -> bool:
        # Custom systems see a readable event only (``ctx.payload`` is a dict). Their own guard runs
        # inside ``process``, under the fence.
        return isinstance(ctx.payload, dict)

    def process(self, ctx) -> None:
        global _running
        before = _running = _Snapshot(ctx)
        try:
            with _Fenced():
                wanted = self.system.should_process(ctx)
                if wanted is not True and wanted is not False:
                    raise GuardViolation(f"{self.name}: should_process returned {_shown(wanted)}, not True or False")
                if wanted:
                    returned = self.system.process(ctx)
                    if returned is not None:
                        raise GuardViolation(
                            f"{self.name}: process returned {_shown(returned)}; a system changes the context"
                            " (ctx.decide, ctx.add_feedback, ctx.warn) and returns None"
                        )
        except (Exception, SystemExit, GeneratorExit, DeadlinePassed) as exc:
            with _AlarmHeld():
                before.restore(ctx)
                _running = None
            if isinstance(exc, (SystemExit, GeneratorExit)):
                raise GuardViolation(f"{self.name}: tried to end the process ({type(exc).__name__})") from None
            if isinstance(exc, (DeadlinePassed, DeadlineExceeded)):
                raise DeadlineExceeded(f"{self.name}: {clock.MESSAGE}") from None
            if getattr(exc, "public", False) and not isinstance(exc, GuardViolation):
                raise CupcakeError(f"{self.name}: {str(exc).strip()}") from None  # say whose message it is
            raise
        # The checks and the undoing must not be cut short by the deadline's alarm.
        problem: CupcakeError | None
        with _AlarmHeld():
            _running = None
            if ctx.deadline is not None and time.monotonic() > ctx.deadline:
                before.restore(ctx)
                problem = DeadlineExceeded(f"{self.name}: {clock.MESSAGE}")
            else:
                found = before.violation(ctx, self.order)
                if found:
                    before.restore(ctx)
                elif ctx.hard is not None and type(ctx.hard) is not HardDecision:
                    ctx.hard = HardDecision(
                        *ctx.hard
                    )  # a stricter decision set as a plain tuple: read by name from now on
                problem = GuardViolation(f"{self.name}: {found}; its changes were undone") if found else None
        if problem is not None:
            raise problem


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _response_fields(response):
    if isinstance(response, Response):
        return tuple(getattr(response, f) for f in _RESPONSE_FIELDS)
    return response


class _Snapshot:
    """What a custom system found, to compare with what it left, and to put back."""

    def __init__(self, ctx):
        self.owned = {name: getattr(ctx, name) for name in _OWNED}
        self.lists = {name: list(getattr(ctx, name)) for name in _FIXED_LISTS + _GROWING_LISTS}
        self.hard = ctx.hard
        self.response = ctx.response
        self.response_fields = _response_fields(ctx.response)

    def restore(self, ctx) -> None:
        for name, value in self.owned.items():
            setattr(ctx, name, value)
        for name, items in self.lists.items():
            setattr(ctx, name, list(items))
        ctx.hard = self.hard
        ctx.response = self.response
        if isinstance(self.response, Response):
            for field, value in zip(_RESPONSE_FIELDS, self.response_fields):
                setattr(self.response, field, value)

    def violation(self, ctx, order: int):
        """What the system did that it may not, or None."""
        for name, value in self.owned.items():
            now = getattr(ctx, name)
            if now is not value and now != value:
                return f"changed ctx.{name}, which belongs to Cupcake"
        for name in _FIXED_LISTS:
            now = getattr(ctx, name)
            if (
                type(now) is not list
                or len(now) != len(self.lists[name])
                or any(a is not b for a, b in zip(now, self.lists[name]))
            ):
                return f"changed ctx.{name}, which belongs to Cupcake"
        sealed = ctx.sealed
        for name in _GROWING_LISTS:
            now, was = getattr(ctx, name), self.lists[name]
            if type(now) is not list or now[: len(was)] != was:
                return f"removed or rewrote what earlier systems put in ctx.{name}"
            added = now[len(was) :]
            if any(not isinstance(item, str) or not item for item in added):
                return f"put something other than text in ctx.{name}"
            if added and sealed and name != "warnings":
                return f"added to ctx.{name} after the answer was sealed ({SEALED_AFTER}); only warnings may be added"
        problem = self._hard_violation(ctx.hard, sealed)
        if problem:
            return problem
        return self._response_violation(ctx.response, order, sealed)

    def _hard_violation(self, hard, sealed):
        was = self.hard
        if hard == was:
            return None
        if sealed:
            return f"changed ctx.hard after the answer was sealed ({SEALED_AFTER})"
        if not (
            isinstance(hard, tuple)
            and len(hard) == 3
            and hard[0] in HARD_RANK
            and isinstance(hard[1], str)
            and isinstance(hard[2], str)
        ):
            if hard is None:
                return f"tried to loosen the decision: it removed the {_described(was)}"
            return f'set ctx.hard to {_shown(hard)}; use ctx.decide("block" | "ask" | "approve", text, by=name)'
        if was is not None and HARD_RANK[hard[0]] <= HARD_RANK[was.kind]:
            return f"tried to loosen the decision: it replaced the {_described(was)} with {_described(hard)}"
        return None

    def _response_violation(self, response, order, sealed):
        was = self.response
        if response is was and _response_fields(response) == self.response_fields:
            return None
        if sealed:
            return f"changed the answer after it was sealed ({SEALED_AFTER})"
        if was is None and order < Stage.RESPONSE_PREPARATION:
            return (
                f"set ctx.response before the answer is prepared ({Stage.RESPONSE_PREPARATION}), which would"
                " replace it; use ctx.decide or ctx.add_feedback"
            )
        if was is not None and self.response_fields[0] == BLOCK:
            return "tried to change the prepared answer; a block stands"
        if (
            not isinstance(response, Response)
            or response.decision != BLOCK
            or not isinstance(response.text, str)
            or not response.text
        ):
            return "tried to change the prepared answer; it may only be replaced by a block"
        return None


def _described(hard) -> str:
    kind, _text, by = hard
    return f'{kind} by "{by}"'


class _AlarmHeld:
    """SIGALRM is held (not lost) while Cupcake's own bookkeeping runs; it rings on leaving."""

    def __enter__(self):
        speedups.hold_alarm(True)
        return self

    def __exit__(self, *exc):
        speedups.hold_alarm(False)
        return False


class _Fenced:
    """While a custom system's code runs: fd 1 and ``sys.stdout`` point at stderr (stdout carries
    the answer), and the deadline's alarm may ring into it again and again."""

    def __enter__(self):
        global _saved_stdout
        self.stream = sys.stdout
        self.saved = None
        with _AlarmHeld():
            _flush(self.stream)
            try:
                self.saved = os.dup(1)
                _point_stdout_away()
                _saved_stdout = self.saved
            except OSError:  # no fd 1 to protect
                if self.saved is not None:
                    os.close(self.saved)
                self.saved = None
            sys.stdout = sys.stderr
            clock.custom_running = True
        return self

    def __exit__(self, *exc):
        global _saved_stdout
        with _AlarmHeld():
            clock.custom_running = False
            _flush(sys.stdout)
            _flush(self.stream)  # text the system wrote through an old reference goes to stderr too
            sys.stdout = self.stream
            if self.saved is not None:
                os.dup2(self.saved, 1)
                os.close(self.saved)
                _saved_stdout = None
        return False


def _point_stdout_away() -> None:
    try:
        os.dup2(2, 1)
    except OSError:  # no stderr either: what the system prints is dropped
        target = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(target, 1)
        finally:
            os.close(target)


def _flush(stream) -> None:
    try:
        stream.flush()
    except Exception:  # a closed or broken stream: nothing to flush
        pass
