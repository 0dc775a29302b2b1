"""200 · Find the project root and load the policies (compiled set from the cache when valid).

No policy file at all: ``ctx.policies`` stays None and every later system stays silent.

Errors in the policy files put out of service only what they name; the other policies are
enforced, and every run reports the errors: a note to the user (fail_mode "open"), or a block on
an event that can block (fail_mode "closed")."""

from __future__ import annotations

import time

from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.policy.loader import load
from cupcake.policy.settings import fail_mode_of, run_seconds
from cupcake.project import find_root


class PolicyLoad(BaseSystem):
    name = "policy_load"
    order = Stage.POLICY_LOAD

    def process(self, ctx) -> None:
        payload = ctx.payload if isinstance(ctx.payload, dict) else {}
        ctx.root = find_root(ctx.env, payload.get("cwd"))
        loaded = load(ctx.root, ctx.env)
        ctx.configured = loaded is not None
        if loaded is None:
            return
        compiled = loaded.compiled
        ctx.settings = compiled["settings"]
        ctx.fail_mode = "closed" if ctx.options.get("fail_closed") else fail_mode_of(ctx.settings)
        ctx.deadline = ctx.options.get("started", time.monotonic()) + run_seconds(ctx.settings)
        if loaded.cache_problem:
            ctx.warnings.append(f"Cupcake: {loaded.cache_problem}")
        ctx.policies = compiled
        if compiled["out_of_service"]:
            report_out_of_service(ctx, compiled["out_of_service"])


# The name of the failure a broken policy is in fail_mode "closed" (feedback_guarantee words it).
OUT_OF_SERVICE = "policies"


def report_out_of_service(ctx, text: str) -> None:
    from cupcake.agents.claude.render import BLOCKING_EVENTS

    if ctx.fail_mode == "closed" and ctx.event in BLOCKING_EVENTS:
        from cupcake.pipeline.runner import Failure

        # Like a custom system's failure, it does not stop the evaluation: a block a policy finds
        # stands with its own reason; without one, the guarantee blocks with this text.
        ctx.failures.append(Failure(OUT_OF_SERVICE, text, True, True))
    else:
        ctx.warnings.append(f"Cupcake: out of service until fixed (every other policy is enforced):\n{text}")
