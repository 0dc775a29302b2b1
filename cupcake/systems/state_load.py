"""300 · Load the session's state, only when a policy that can match asks for it.

No built-in policy reads state yet (session state is its own piece of work), so this system
never runs; it holds its place in the order table."""

from __future__ import annotations

from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem


class StateLoad(BaseSystem):
    name = "state_load"
    order = Stage.STATE_LOAD

    def should_process(self, ctx) -> bool:
        return False
