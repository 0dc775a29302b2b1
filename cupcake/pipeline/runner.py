"""Run a plan over a context: time each system, contain its failure, and always end with an answer."""

from __future__ import annotations

from time import perf_counter


class Failure:
    """A system that raised (or ran out of time), recorded instead of escaping."""

    __slots__ = ("system", "message", "decides")

    def __init__(self, system: str, message: str, decides: bool):
        self.system = system
        self.message = message
        self.decides = decides

    def __repr__(self) -> str:
        return f"Failure({self.system!r}, {self.message!r})"


def describe_exception(exc: BaseException) -> str:
    text = str(exc).strip()
    if getattr(exc, "public", False):
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def run_plan(plan, ctx, finish=None, clock=None):
    """Run every system of ``plan`` in order; ``finish(ctx)`` runs in ``finally`` (the guarantee).

    ``clock`` (an object with ``arm(deadline)`` and ``disarm()``) bounds the run by ``ctx.deadline``,
    re-armed whenever a system moves the deadline.
    """
    armed = None
    try:
        for system in plan:
            if clock is not None and ctx.deadline != armed:
                armed = ctx.deadline
                clock.arm(armed)
            _step(system, ctx)
    finally:
        if clock is not None:
            clock.disarm()
        if finish is not None:
            finish(ctx)
    return ctx


def _step(system, ctx) -> None:
    started = perf_counter()
    try:
        if system.should_process(ctx):
            system.process(ctx)
    except Exception as exc:  # the boundary of one system
        text = describe_exception(exc)
        if not getattr(exc, "public", False):
            text = f"{system.name} failed: {text}"
        # Once the answer is sealed, no failure can change it: it becomes a warning.
        decides = getattr(system, "decides", True) and not ctx.sealed
        ctx.failures.append(Failure(system.name, text, decides))
    finally:
        ctx.timings.append((system.name, perf_counter() - started))
