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
            if not raw.strip():
                raise CupcakeError("the hook event on stdin is not valid JSON: the input is empty") from None
            shown = raw[:80].decode("utf-8", "replace")
            raise CupcakeError(f"the hook event on stdin is not valid JSON: {exc} (input: {shown!r})") from None
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
        command = ctx.incoming.tool_input.get("command")
        if command.__class__ is str and "/cupcake/jail/" in command[:4096]:  # cheap: the OS layer's own
            _read_through_jail(ctx, command)
        if ctx.event_arg and event not in ctx.agent.CAPABILITIES:  # cheap: the agent's own table first
            sent = _sent(ctx, payload)
            if event != sent and event not in _known():
                unknown(ctx, sent)


def _read_through_jail(ctx, command: str) -> None:
    """A shell call the OS layer jailed, seen again (after the call, or by a second hook before it):
    the policies judge the command inside. Before a call this happens only with the layer on, which
    then jails the command inside (again, or as it is when it is exactly this jail)."""
    from cupcake.jail import unwrap

    if ctx.event not in ("PostToolUse", "PostToolUseFailure") and not (
        ctx.event == "PreToolUse" and ctx.options.get("jail")
    ):
        return
    if not unwrap.looks_jailed(command):
        return
    from cupcake.project import find_root

    root = find_root(ctx.incoming.project_dir, ctx.incoming.cwd)
    user_command = unwrap.inner(command, root)
    if user_command is None:
        return
    tool_input = dict(ctx.incoming.tool_input, command=user_command)
    ctx.payload = dict(ctx.payload, tool_input=tool_input)
    ctx.incoming = Event(ctx.event, ctx.payload, ctx.agent.NAME, ctx.incoming.project_dir)
    ctx.options["jail_wrapped"] = command


def _known() -> tuple[str, ...]:
    from cupcake.agents import catalog

    return catalog.events()


def _sent(ctx, payload: dict):
    """The canonical event the agent itself named in its payload (without ``--event``), or None."""
    try:
        return ctx.agent.parse(payload, None, ctx.env)[0]
    except ValueError:
        return None


def unknown(ctx, named) -> None:
    """``--event`` names an event no agent sends, and not the one the agent sent: a typo in the hook
    command, so no policy would ever apply. It is a failure, answered in the form of the event the
    agent did send, so that fail_mode "closed" blocks. (An event the agent itself names that Cupcake
    does not know yet is a newer client's: it is accepted, and no policy applies.)"""
    from cupcake.problems import suggestion

    bad = ctx.event
    known = _known()
    if isinstance(named, str) and named in known:
        ctx.event = named
        ctx.incoming = Event(named, ctx.payload, ctx.agent.NAME, ctx.incoming.project_dir)
    raise CupcakeError(
        f'unknown event "{bad}"{suggestion(bad, known)}: no agent sends it, so no policy applies to it;'
        " fix the hook command (`cupcake sync` writes it)"
    )
