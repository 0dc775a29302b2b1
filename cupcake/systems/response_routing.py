"""800 · Render the sealed answer for the agent (the CLI writes it when the pipeline ends).

Warnings added later (a state or audit write that failed) are rendered again at the end."""

from __future__ import annotations

from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.context import Context

# The events that open a session or a turn, where a standing problem is told (cupcake.stores.workdir).
TOLD_ON = ("SessionStart", "UserPromptSubmit")


class ResponseRouting(BaseSystem):
    order = Stage.RESPONSE_ROUTING

    def process(self, ctx: Context) -> None:
        ensure_envelope(ctx)


def all_warnings(ctx: Context) -> list:
    notes = list(ctx.warnings)
    notes.extend(f"Cupcake: {f.message}" for f in ctx.failures if not f.decides)
    if ctx.standing and ctx.event in TOLD_ON:  # not on every tool call: see cupcake.stores.workdir
        notes.extend(ctx.standing)
    return notes


def ensure_envelope(ctx: Context) -> None:
    warnings = all_warnings(ctx)
    if ctx.envelope is not None and ctx.rendered_warnings == len(warnings):
        return
    if ctx.configured is False:
        warnings = []  # no policy file: say nothing at all
    event, payload, response = ctx.event or "", ctx.payload, ctx.response
    if ctx.options.get("jail"):  # the OS layer: each shell call it lets through runs in the jail
        from cupcake.jail import decide

        if decide.applies(ctx):
            event, payload, response = decide.PRE_TOOL, payload or {}, decide.response(ctx, response)
    assert ctx.agent is not None  # the command sets the adapter before the pipeline runs
    ctx.envelope = ctx.agent.render(event, payload, response, warnings)
    ctx.rendered_warnings = len(warnings)
