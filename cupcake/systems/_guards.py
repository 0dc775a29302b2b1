"""Shared preconditions of the evaluating systems."""

from __future__ import annotations


def can_evaluate(ctx) -> bool:
    """Policies are loaded, the event was read, and nothing that decides has failed."""
    return (
        ctx.policies is not None
        and not ctx.policies.get("error")
        and isinstance(ctx.payload, dict)
        and not ctx.decision_failures()
    )
