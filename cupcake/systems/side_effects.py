"""Side effects of matching policies: they never decide, and run after the decision, only when the
operation goes ahead (always on PostToolUse/PostToolUseFailure, where it already happened)."""

from __future__ import annotations

from cupcake.evaluate.compiled import Policy
from cupcake.pipeline.response import APPROVE, NONE

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.evaluate.compiled import Action
    from cupcake.pipeline.context import Context

AFTER_THE_FACT = ("PostToolUse", "PostToolUseFailure")


def operation_goes_ahead(ctx: Context) -> bool:
    """Nothing stopped it (no block, no soft denial, no pending question, no failure)."""
    if ctx.event in AFTER_THE_FACT:
        return True
    response = ctx.response
    return response is not None and response.decision in (NONE, APPROVE) and not ctx.decision_failures()


def side_effect_policies(ctx: Context) -> list[tuple[str, Action]]:
    """(name, action) of the matched policies whose action is a side effect (``update_state``,
    ``run_command`` with ``on_failure = "ignore"``), in list order."""
    if not ctx.matched or ctx.policies is None:
        return []
    policies = ctx.policies["policies"]
    found = []
    for i in ctx.matched:
        policy = Policy(policies[i])
        action = policy.action
        if (action.kind == "check" and action.on_failure == "ignore") or action.kind == "state":
            found.append((policy.name, action))
    return found


def run_ignored_commands(ctx: Context) -> None:
    """``run_command`` with ``on_failure = "ignore"``: run it, record it, never let it decide."""
    for name, action in side_effect_policies(ctx):
        if action.kind == "check":
            from cupcake.run_command.check import run_check  # only when a check matched

            run_check(ctx, name, action)
