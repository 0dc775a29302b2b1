"""300 · Load the session's state, only when a policy that can match this event asks for it.

Which policies have state conditions is computed when policies are compiled (``state_needs``,
per event), so a run whose policies need no state checks one dictionary and reads no file.
The summary beside the log answers the conditions (``cupcake.stores.state.index``)."""

from __future__ import annotations

from cupcake import lean_os as os  # loaded by every run already (cupcake.cli.run)
from cupcake.evaluate.conditions import event_candidates
from cupcake.evaluate.patterns import of as run_patterns
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.systems._guards import can_evaluate, evaluating

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.context import Context


def candidates_need_state(ctx: Context) -> bool:
    """A candidate policy of this event and tool (its matcher accepts the tool) has a state condition."""
    policies, event, _root = evaluating(ctx)
    ids = policies["state_needs"][ctx.event]
    return any(i in ids for i in event_candidates(policies, event, run_patterns(ctx)))


class StateLoad(BaseSystem):
    order = Stage.STATE_LOAD

    def should_process(self, ctx: Context) -> bool:
        return can_evaluate(ctx) and bool(evaluating(ctx)[0].get("state_needs", {}).get(ctx.event))

    def process(self, ctx: Context) -> None:
        if not candidates_need_state(ctx):
            return
        from cupcake.stores.state import index, names, store

        policies, event, root = evaluating(ctx)
        name = names.state_name(event.session_id)
        if name is None:
            ctx.state = {}
            ctx.warnings.append("Cupcake: the event has no session_id, so state conditions see an empty session")
            return
        dir_fd = store.open_state_dir(root, create=False)
        if dir_fd is None:
            ctx.state = {}
            return
        try:
            filters = policies.get("state_filters", {})
            ctx.state, warnings = index.load(dir_fd, name, filters, run_patterns(ctx))
        finally:
            os.close(dir_fd)
        ctx.warnings.extend(f"Cupcake: {w}" for w in warnings)
