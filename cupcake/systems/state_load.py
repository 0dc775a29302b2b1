"""300 · Load the session's state, only when a policy that can match this event asks for it.

Which policies have state conditions is computed when policies are compiled (``state_needs``,
per event), so a run whose policies need no state checks one dictionary and reads no file.
The summary beside the log answers the conditions (``cupcake.stores.state.index``)."""

from __future__ import annotations

from cupcake.evaluate.conditions import event_candidates
from cupcake.evaluate.patterns import of as run_patterns
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.systems._guards import can_evaluate


def candidates_need_state(ctx) -> bool:
    """A candidate policy of this event and tool (its matcher accepts the tool) has a state condition."""
    ids = ctx.policies["state_needs"][ctx.event]
    return any(i in ids for i in event_candidates(ctx.policies, ctx.incoming, run_patterns(ctx)))


class StateLoad(BaseSystem):
    order = Stage.STATE_LOAD

    def should_process(self, ctx) -> bool:
        return can_evaluate(ctx) and bool(ctx.policies.get("state_needs", {}).get(ctx.event))

    def process(self, ctx) -> None:
        if not candidates_need_state(ctx):
            return
        import os

        from cupcake.stores.state import index, names, store

        name = names.state_name(ctx.incoming.session_id)
        if name is None:
            ctx.state = {}
            ctx.warnings.append("Cupcake: the event has no session_id, so state conditions see an empty session")
            return
        dir_fd = store.open_state_dir(ctx.root, create=False)
        if dir_fd is None:
            ctx.state = {}
            return
        try:
            filters = ctx.policies.get("state_filters", {})
            ctx.state, warnings = index.load(dir_fd, name, filters, run_patterns(ctx))
        finally:
            os.close(dir_fd)
        ctx.warnings.extend(f"Cupcake: {w}" for w in warnings)
