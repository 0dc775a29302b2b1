"""500 · Pass 2: walk the matched policies in list order; the first hard action is final.

A ``run_command`` in block mode (the default) runs here: a failure (non-zero exit, timeout, an
executable that cannot start) is a final block with its feedback; success means that check is
satisfied and the scan goes on, so a passing test suite never shadows a later block."""

from __future__ import annotations

from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.systems._guards import can_evaluate
from cupcake.systems.checks import run_check

HARD = ("block", "approve", "ask")


class HardActionScan(BaseSystem):
    name = "hard_action_scan"
    order = Stage.HARD_ACTION_SCAN

    def should_process(self, ctx) -> bool:
        return bool(ctx.matched) and can_evaluate(ctx)

    def process(self, ctx) -> None:
        policies = ctx.policies["policies"]
        for i in ctx.matched:
            name, _event, _tools, _conditions, action, _file, _line = policies[i]
            if action[0] in HARD:
                ctx.hard = (action[0], action[1], name)
                return
            if action[0] == "check" and action[2] == "block":
                ok, text = run_check(ctx, name, action)
                if not ok:
                    ctx.hard = ("block", text, name)
                    return
