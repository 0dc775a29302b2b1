"""200 · Find the project root and load the policies (compiled set from the cache when valid).

No policy file at all: ``ctx.policies`` stays None and every later system stays silent.

Errors in the policy files put out of service only what they name; the other policies are
enforced, and every run reports the errors: a note to the user (fail_mode "open"), or a block on
an event that can block (fail_mode "closed")."""

from __future__ import annotations

import time

from cupcake.evaluate.settings import fail_mode_of, run_seconds
from cupcake.pipeline.order import Stage
from cupcake.pipeline.runner import Failure
from cupcake.pipeline.system import BaseSystem
from cupcake.project import find_root
from cupcake.stores.policies.loader import load

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.context import Context


class PolicyLoad(BaseSystem):
    order = Stage.POLICY_LOAD

    def process(self, ctx: Context) -> None:
        # The deadline starts with the run, before the policies (and their timeout) are known: until
        # they are, the default timeout bounds the load itself.
        if ctx.deadline is None:
            ctx.deadline = ctx.options.get("started", time.monotonic()) + run_seconds({})
        event = ctx.incoming  # None when the event could not be read: the agent's environment still names the project
        if event is not None:
            ctx.root = find_root(event.project_dir, event.cwd)
        else:
            assert ctx.agent is not None  # the command sets the adapter before the pipeline runs
            ctx.root = find_root(ctx.agent.project_dir(ctx.env), None)
        loaded = load(ctx.root, ctx.env)
        ctx.configured = loaded is not None
        if loaded is None:
            return
        compiled = loaded.compiled
        ctx.settings = compiled["settings"]
        ctx.fail_mode = "closed" if ctx.options.get("fail_closed") else fail_mode_of(ctx.settings)
        ctx.deadline = ctx.options.get("started", time.monotonic()) + run_seconds(ctx.settings)
        if loaded.cache_problem:
            from cupcake.stores.workdir import standing

            if not standing(ctx):
                ctx.warnings.append(f"Cupcake: {loaded.cache_problem}")
        ctx.policies = compiled
        if compiled["out_of_service"]:
            report_out_of_service(ctx, compiled["out_of_service"])


# The name of the failure a broken policy is in fail_mode "closed" (feedback_guarantee words it).
OUT_OF_SERVICE = "policies"


def report_out_of_service(ctx: Context, text: str) -> None:
    assert ctx.agent is not None  # the command sets the adapter before the pipeline runs
    if ctx.fail_mode == "closed" and ctx.agent.action_supported("block", ctx.event or ""):
        # Like a custom system's failure, it does not stop the evaluation: a block a policy finds
        # stands with its own reason; without one, the guarantee blocks with this text.
        ctx.failures.append(Failure(OUT_OF_SERVICE, text, True, True))
    else:
        ctx.warnings.append(f"Cupcake: out of service until fixed (every other policy is enforced):\n{text}")
