"""900 · After the decision: the side effects of matching policies, when the operation goes ahead
(``run_command`` with ``on_failure = "ignore"``). Runs after the answer is sealed, so nothing here
can change it; a failure becomes a warning in the answer.

Recording the session's tool use is its own piece of work (session state): until it lands,
nothing is recorded here."""

from __future__ import annotations

from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.systems.side_effects import operation_goes_ahead, run_ignored_commands, side_effect_policies


class StateWrite(BaseSystem):
    name = "state_write"
    order = Stage.STATE_WRITE
    decides = False

    def should_process(self, ctx) -> bool:
        return bool(side_effect_policies(ctx)) and operation_goes_ahead(ctx)

    def process(self, ctx) -> None:
        run_ignored_commands(ctx)
