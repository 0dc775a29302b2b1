"""Run a plan over a context: time each system, contain its failure, and always end with an answer."""

from __future__ import annotations

from time import monotonic, perf_counter

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from cupcake.pipeline.clock import AlarmClock
    from cupcake.pipeline.context import Context
    from cupcake.pipeline.system import BaseSystem

    Replan = Callable[[Context, list[BaseSystem]], Sequence[BaseSystem]]


class Failure:
    """A system that raised (or ran out of time), recorded instead of escaping.

    ``decides``: the failure makes the run's answer an error (fail_mode decides what it means).
    ``custom``: the system came from an integrator; its failure does not stop the built-in
    evaluation, so whatever the policies decided still applies.
    ``blocks``: the failure blocks on an event that can block, whatever fail_mode says (input the
    agent may have made unreadable on purpose)."""

    __slots__ = ("system", "message", "decides", "custom", "blocks")

    def __init__(self, system: str, message: str, decides: bool, custom: bool = False, blocks: bool = False):
        self.system = system
        self.message = message
        self.decides = decides
        self.custom = custom
        self.blocks = blocks

    def __repr__(self) -> str:
        return f"Failure({self.system!r}, {self.message!r})"


def describe_exception(exc: BaseException) -> str:
    text = str(exc).strip()
    if getattr(exc, "public", False):
        return text
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def run_plan(
    plan: Sequence[BaseSystem],
    ctx: Context,
    finish: Callable[[Context], None] | None = None,
    clock: AlarmClock | None = None,
    replan: tuple[int, Replan] | None = None,
) -> Context:
    """Run every system of ``plan`` in order; ``finish(ctx)`` runs in ``finally`` (the guarantee).

    ``clock`` (an object with ``arm(deadline, repeat)`` and ``disarm()``) bounds the run by
    ``ctx.deadline``, re-armed whenever a system moves the deadline, and armed to ring repeatedly
    around custom systems. Once the deadline has passed, the clock is disarmed and custom systems
    are no longer started.

    ``replan = (order, fn)``: after the system at ``order`` has run, ``fn(ctx, rest)`` returns the
    rest of the plan (custom systems are known only once the policies are loaded). If ``fn``
    fails, the failure is recorded and the rest runs as it was.
    """
    armed = None
    late = False
    rest = list(plan)
    try:
        i = 0
        while i < len(rest):
            system = rest[i]
            i += 1
            if not late and ctx.deadline is not None and monotonic() >= ctx.deadline:
                late = True
                if clock is not None:
                    clock.disarm()
            custom = getattr(system, "custom", False)
            if late and custom:
                decides = getattr(system, "decides", True) and not ctx.sealed
                message = f"{system.name} did not run: the run's deadline had passed"
                ctx.failures.append(Failure(system.name, message, decides, True))
                continue
            if clock is not None and not late and (ctx.deadline, custom) != armed:
                armed = (ctx.deadline, custom)
                clock.arm(ctx.deadline, custom)
            ctx.current = system.name
            _step(system, ctx)
            if replan is not None and system.order == replan[0]:
                rest[i:] = _replan(replan[1], ctx, rest[i:])
    finally:
        if clock is not None:
            clock.disarm()
        if finish is not None:
            finish(ctx)
    return ctx


def _replan(fn: Replan, ctx: Context, rest: list[BaseSystem]) -> list[BaseSystem]:
    started = perf_counter()
    try:
        return list(fn(ctx, rest))
    except Exception as exc:  # the configured systems could not be set up: the built-in rest still runs
        ctx.failures.append(Failure("pipeline", describe_exception(exc), True, True))
        return rest
    finally:
        ctx.timings.append(("(replan)", perf_counter() - started))


def _step(system: BaseSystem, ctx: Context) -> None:
    started = perf_counter()
    rehearsal = ctx.options.get("rehearsal")  # explain, test, replay: see ``rehearsal``
    try:
        if (rehearsal is None or rehearsal.allows(system)) and system.should_process(ctx):
            system.process(ctx)
    except Exception as exc:  # the boundary of one system
        text = describe_exception(exc)
        if not getattr(exc, "public", False):
            text = f"{system.name} failed: {text}"
        # Once the answer is sealed, no failure can change it: it becomes a warning.
        decides = getattr(system, "decides", True) and not ctx.sealed
        custom = getattr(system, "custom", False)
        blocks = decides and not custom and getattr(exc, "blocks", False) is True
        ctx.failures.append(Failure(system.name, text, decides, custom, blocks))
    finally:
        ctx.timings.append((system.name, perf_counter() - started))
