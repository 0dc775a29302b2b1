"""Shared preconditions of the evaluating systems."""

from __future__ import annotations


def can_evaluate(ctx) -> bool:
    """Policies are loaded, the event was read, and no built-in system that decides has failed.

    A custom system's failure does not stop the evaluation: what the policies decide still
    applies, and the failure is weighed by the feedback guarantee."""
    return (
        ctx.policies is not None
        and isinstance(ctx.payload, dict)
        and not any(f.decides and not f.custom for f in ctx.failures)
    )
