"""100 · Read the hook event: JSON object on stdin; ``--event`` wins over ``hook_event_name``.
Unknown fields and values are kept: newer clients send more than older docs list."""

from __future__ import annotations

from cupcake.agents.claude.render import EVENTS
from cupcake.errors import CupcakeError
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.speedups import fastjson


class InputParse(BaseSystem):
    name = "input_parse"
    order = Stage.INPUT_PARSE

    def process(self, ctx) -> None:
        raw = ctx.raw
        try:
            payload = fastjson.loads(raw)
        except ValueError as exc:
            if not raw.strip():
                raise CupcakeError("the hook event on stdin is not valid JSON: the input is empty") from None
            shown = raw[:80].decode("utf-8", "replace")
            raise CupcakeError(f"the hook event on stdin is not valid JSON: {exc} (input: {shown!r})") from None
        if not isinstance(payload, dict):
            raise CupcakeError(f"the hook event on stdin must be a JSON object, got {type(payload).__name__}")
        ctx.payload = payload
        named = payload.get("hook_event_name")
        ctx.event = ctx.event_arg or (named if isinstance(named, str) else None)
        if not ctx.event:
            raise CupcakeError("no event: pass --event <Event> or send hook_event_name")
        if ctx.event not in EVENTS and ctx.event != named:
            unknown(ctx, named)


def unknown(ctx, named) -> None:
    """``--event`` names an event no agent sends, and not the one the agent sent: a typo in the hook
    command, so no policy would ever apply. It is a failure, answered in the form of the event the
    agent did send, so that fail_mode "closed" blocks. (An event the agent itself names that Cupcake
    does not know yet is a newer client's: it is accepted, and no policy applies.)"""
    from cupcake.policy.problems import suggestion

    bad = ctx.event
    if isinstance(named, str) and named in EVENTS:
        ctx.event = named
    raise CupcakeError(
        f'unknown event "{bad}"{suggestion(bad, EVENTS)}: no agent sends it, so no policy applies to it;'
        " fix the hook command (`cupcake sync` writes it)"
    )
