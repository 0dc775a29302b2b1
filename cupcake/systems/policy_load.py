"""200 · Find the project root and load the policies (compiled set from the cache when valid).

No policy file at all: ``ctx.policies`` stays None and every later system stays silent."""

from __future__ import annotations

import time

from cupcake.errors import CupcakeError
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.policy.loader import load
from cupcake.policy.settings import fail_mode_of, run_seconds
from cupcake.project import find_root


class PolicyLoad(BaseSystem):
    order = Stage.POLICY_LOAD

    def process(self, ctx) -> None:
        # The deadline starts with the run, before the policies (and their timeout) are known: until
        # they are, the default timeout bounds the load itself.
        if ctx.deadline is None:
            ctx.deadline = ctx.options.get("started", time.monotonic()) + run_seconds({})
        event = ctx.incoming  # None when the event could not be read: the agent's environment still names the project
        if event is not None:
            ctx.root = find_root(event.project_dir, event.cwd)
        else:
            ctx.root = find_root(ctx.agent.project_dir(ctx.env), None)
        loaded = load(ctx.root, ctx.env)
        ctx.configured = loaded is not None
        if loaded is None:
            return
        compiled = loaded.compiled
        ctx.settings = compiled["settings"]
        ctx.fail_mode = fail_mode_of(ctx.settings)
        ctx.deadline = ctx.options.get("started", time.monotonic()) + run_seconds(ctx.settings)
        if loaded.cache_problem:
            ctx.warnings.append(f"Cupcake: {loaded.cache_problem}")
        ctx.policies = compiled
        if compiled["error"]:
            raise CupcakeError(compiled["error"])
