"""900 · Record the session's tool use and custom events (runs after the answer is sealed).

Session state is its own piece of work: until it lands, nothing is recorded, and this system
never runs; it holds its place in the order table."""

from __future__ import annotations

from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem


class StateWrite(BaseSystem):
    name = "state_write"
    order = Stage.STATE_WRITE
    decides = False

    def should_process(self, ctx) -> bool:
        return False
