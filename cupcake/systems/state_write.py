"""900 · After the decision: record what happened in the session, and run the side effects.

- PostToolUse / PostToolUseFailure: the tool use is appended to the session log (every tool, no
  policy needed, whenever a policy file exists), with ``success`` true or false.
- ``update_state`` of matching policies records its custom event, and ``run_command`` with
  ``on_failure = "ignore"`` runs, when the operation goes ahead (see ``side_effects``).
- SessionEnd with reason ``clear`` or ``logout`` removes the session's state (other reasons may be
  followed by a resume of the same session). State untouched for ``state_ttl_days`` is removed at
  most once a day.

Runs after the answer is sealed, so nothing here can change it: a failure becomes a warning."""

from __future__ import annotations

import time

from cupcake import lean_os as os
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.systems.side_effects import (
    AFTER_THE_FACT,
    operation_goes_ahead,
    run_ignored_commands,
    side_effect_policies,
)

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.evaluate.compiled import Action
    from cupcake.pipeline.context import Context

ENDS_FOR_GOOD = ("clear", "logout")


def _ends_session(ctx: Context) -> bool:
    incoming = ctx.incoming
    return ctx.event == "SessionEnd" and incoming is not None and incoming.end_reason in ENDS_FOR_GOOD


class StateWrite(BaseSystem):
    order = Stage.STATE_WRITE
    decides = False

    def should_process(self, ctx: Context) -> bool:
        if ctx.configured is not True or ctx.incoming is None or ctx.root is None:
            return False
        return ctx.event in AFTER_THE_FACT or _ends_session(ctx) or bool(side_effect_policies(ctx))

    def process(self, ctx: Context) -> None:
        effects = side_effect_policies(ctx) if operation_goes_ahead(ctx) else []
        try:
            record(ctx, effects)
        finally:
            if any(action.kind == "check" for _name, action in effects):
                run_ignored_commands(ctx)


def record(ctx: Context, effects: list[tuple[str, Action]]) -> None:
    """Append the tool use and the custom events (one write), end the session, sweep old state."""
    from cupcake.errors import CupcakeError
    from cupcake.stores.state import entries, names, store, sweep
    from cupcake.stores.workdir import standing

    incoming, root = ctx.incoming, ctx.root
    assert incoming is not None and root is not None  # should_process checked them
    now = time.time()
    pending = []
    if ctx.event in AFTER_THE_FACT:
        from cupcake.stores.audit import mask

        mask.use_forms(ctx.policies.get("sre") if isinstance(ctx.policies, dict) else None)
        from cupcake.stores.state.outcome import tool_succeeded

        pending.append(entries.tool_entry(incoming, root, tool_succeeded(ctx.event, incoming), now))
    for policy, action in effects:
        if action.kind == "state":
            pending.append(entries.event_entry(action.event, action.data, policy, now))
    ending = _ends_session(ctx)
    if not pending and not ending:
        return
    name = names.state_name(incoming.session_id)
    if name is None:
        what = "this tool use was" if ctx.event in AFTER_THE_FACT else "no state was"
        ctx.warnings.append(f"Cupcake: the event has no session_id, so {what} not recorded")
        return
    try:
        dir_fd = store.open_state_dir(root, create=not ending)
    except CupcakeError as exc:
        if not standing(ctx):
            ctx.warnings.append(f"Cupcake: session state not recorded: {exc}")
        return
    if dir_fd is None:
        return
    try:
        if pending:
            try:
                store.append(dir_fd, name, pending)
            except (OSError, CupcakeError) as exc:
                reason = getattr(exc, "strerror", None) or exc
                if not standing(ctx):
                    ctx.warnings.append(f"Cupcake: could not record this event in {store.shown(name)}: {reason}")
        if ending:
            try:
                store.remove_session(dir_fd, name)
            except OSError as exc:
                ctx.warnings.append(f"Cupcake: could not remove the state of the ended session: {exc.strerror or exc}")
        if sweep.due(dir_fd, now):
            try:
                sweep.sweep(dir_fd, sweep.ttl_seconds(ctx.settings), now, keep=None if ending else name)
            except OSError as exc:
                ctx.warnings.append(f"Cupcake: could not remove old session state: {exc.strerror or exc}")
    finally:
        os.close(dir_fd)
