"""Shared preconditions of the evaluating systems."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.agents.event import Event
    from cupcake.pipeline.context import Context


def can_evaluate(ctx: Context) -> bool:
    """Policies are loaded, the event was read, and no built-in system that decides has failed.

    A custom system's failure does not stop the evaluation: what the policies decide still
    applies, and the failure is weighed by the feedback guarantee."""
    return (
        ctx.policies is not None
        and isinstance(ctx.payload, dict)
        and not any(f.decides and not f.custom for f in ctx.failures)
    )


def evaluating(ctx: Context) -> tuple[dict, Event, str]:
    """The policies, the event and the project root of a run that can evaluate (``can_evaluate`` held)."""
    policies, event, root = ctx.policies, ctx.incoming, ctx.root
    assert policies is not None and event is not None and root is not None, "can_evaluate() did not hold"
    return policies, event, root
