"""100 · Read the hook event: a JSON object on stdin, turned into the canonical event by the agent's
adapter (``--agent``, default Claude Code). Unknown fields and values are kept: newer clients send more
than older docs list."""

from __future__ import annotations

from cupcake import speedups
from cupcake.agents.event import Event
from cupcake.errors import CupcakeError
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem


class InputParse(BaseSystem):
    order = Stage.INPUT_PARSE

    def process(self, ctx) -> None:
        raw = ctx.raw
        try:
            payload = speedups.json_loads(raw)
        except ValueError as exc:
            shown = raw[:80].decode("utf-8", "replace") if raw.strip() else "(empty input)"
            raise CupcakeError(f"the hook event on stdin is not valid JSON ({exc}): {shown!r}") from None
        if not isinstance(payload, dict):
            raise CupcakeError(f"the hook event on stdin must be a JSON object, got {type(payload).__name__}")
        try:
            event, canonical, project_dir = ctx.agent.parse(payload, ctx.event_arg, ctx.env)
        except ValueError as exc:
            raise CupcakeError(f"the hook event could not be read: {exc}") from None
        ctx.event = event
        if not event:
            raise CupcakeError("no event: pass --event <Event> or send the event's name in the payload")
        ctx.payload = canonical
        ctx.incoming = Event(event, canonical, ctx.agent.NAME, project_dir)
