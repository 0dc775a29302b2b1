"""100 · Read the hook event: a JSON object on stdin, turned into the canonical event by the agent's
adapter (``--agent``, default Claude Code). Unknown fields and values are kept: newer clients send more
than older docs list."""

from __future__ import annotations

from cupcake import speedups
from cupcake.agents.event import Event
from cupcake.errors import CupcakeError, UnreadableInput
from cupcake.input_limits import MAX_DEPTH, MAX_INPUT_BYTES, MAX_VALUES
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from collections.abc import Iterable

    from cupcake.pipeline.context import Context


class InputParse(BaseSystem):
    order = Stage.INPUT_PARSE

    def process(self, ctx: Context) -> None:
        raw = ctx.raw
        payload = _read(ctx, raw)
        if not isinstance(payload, dict):
            raise CupcakeError(f"the hook event on stdin must be a JSON object, got {type(payload).__name__}")
        too_deep = shape_problem(payload, False)
        if too_deep:
            raise _unreadable(ctx, *too_deep)
        agent = ctx.agent
        assert agent is not None  # the command sets the adapter before the pipeline runs
        try:
            event, canonical, project_dir = agent.parse(payload, ctx.event_arg, ctx.env)
        except ValueError as exc:
            raise CupcakeError(f"the hook event could not be read: {exc}") from None
        ctx.event = event
        if not event:
            raise CupcakeError("no event: pass --event <Event> or send the event's name in the payload")
        ctx.payload = canonical
        incoming = ctx.incoming = Event(event, canonical, agent.NAME, project_dir)
        not_unicode = not _ascii_only(payload) and _may_hold_surrogates(raw) and shape_problem(payload, True)
        if not_unicode:  # read as far as the audit trail goes (it masks them), then blocked
            raise _unreadable(ctx, *not_unicode)
        command = incoming.tool_input.get("command")
        if command.__class__ is str and "/cupcake/jail/" in command[:4096]:  # cheap: the OS layer's own
            incoming = _read_through_jail(ctx, incoming, command)
        if ctx.event_arg and event not in agent.CAPABILITIES:  # cheap: the agent's own table first
            sent = _sent(ctx, payload)
            if event != sent and event not in _known():
                unknown(ctx, incoming, sent)


def _read_through_jail(ctx: Context, incoming: Event, command: str) -> Event:
    """A shell call the OS layer jailed, seen again (after the call, or by a second hook before it):
    the policies judge the command inside. Before a call this happens only with the layer on, which
    then jails the command inside (again, or as it is when it is exactly this jail). Returns the event
    the policies judge."""
    from cupcake.jail import unwrap

    if ctx.event not in ("PostToolUse", "PostToolUseFailure") and not (
        ctx.event == "PreToolUse" and ctx.options.get("jail")
    ):
        return incoming
    if not unwrap.looks_jailed(command):
        return incoming
    from cupcake.project import find_root

    root = find_root(incoming.project_dir, incoming.cwd)
    user_command = unwrap.inner(command, root)
    if user_command is None:
        return incoming
    tool_input = dict(incoming.tool_input, command=user_command)
    ctx.payload = dict(incoming.payload, tool_input=tool_input)
    ctx.incoming = Event(incoming.name, ctx.payload, incoming.agent, incoming.project_dir)
    ctx.options["jail_wrapped"] = command
    return ctx.incoming


def _read(ctx: Context, raw: bytes) -> object:
    if len(raw) > MAX_INPUT_BYTES:
        raise _unreadable(ctx, f"it is larger than {MAX_INPUT_BYTES >> 20} MiB", "send less at once")
    if raw.count(b",") > MAX_VALUES and _values(raw) > MAX_VALUES:  # commas in strings count first: cheap
        raise _unreadable(ctx, f"it holds more than {MAX_VALUES:,} values", "send fewer values at once")
    try:
        text = speedups.utf8_text(raw)
    except UnicodeDecodeError as exc:
        raise _unreadable(
            ctx, f"it is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})", "use UTF-8 text"
        ) from None
    try:
        return speedups.json_loads(text, from_outside=True)
    except RecursionError:
        raise _unreadable(ctx, f"it is nested more than {MAX_DEPTH} levels deep", _FLATTER) from None
    except speedups.NumberTooLong as exc:
        raise _unreadable(ctx, f"it holds {exc}", "write long numbers as strings") from None
    except ValueError as exc:
        if not raw.strip():
            raise CupcakeError("the hook event on stdin is not valid JSON: the input is empty") from None
        shown = raw[:80].decode("utf-8", "replace")
        raise CupcakeError(f"the hook event on stdin is not valid JSON: {exc} (input: {shown!r})") from None


_FLATTER = "nest it less deeply"


def _unreadable(ctx: Context, why: str, how: str) -> UnreadableInput:
    """The error for an event Cupcake cannot read; the event's name comes from ``--event``, so that
    the answer takes that event's form (a denial where it can deny)."""
    if ctx.event_arg and ctx.agent is not None:
        try:
            ctx.event = ctx.agent.parse({}, ctx.event_arg, ctx.env)[0]  # the canonical name of the agent's event
        except ValueError:
            pass
    return UnreadableInput(f"{why}. Nothing in it was checked; write the tool call plainly ({how}).")


def _values(raw: bytes) -> int:
    """The commas outside JSON strings (about the number of values): only for large inputs."""
    import re  # not on an ordinary run: only an event with more commas than MAX_VALUES gets here

    return re.sub(rb'"[^"\\]*(?:\\.[^"\\]*)*"', b"", raw).count(b",")


def _ascii_only(payload: object) -> bool:
    """Whether every key and string in ``payload`` is ASCII (``str.isascii`` reads a flag: no string is
    read), so that none holds a lone surrogate. Cheaper than looking for an escape of one in the raw
    input, which takes 0.15 ms over 100 KB of escaped text. ``payload`` is no deeper than ``MAX_DEPTH``."""
    stack = [payload]
    while stack:
        node = stack.pop()
        if node.__class__ is str:
            if not node.isascii():
                return False
        elif isinstance(node, dict):
            for key, value in node.items():
                if key.__class__ is str and not key.isascii():
                    return False
                stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return True


def _may_hold_surrogates(raw: bytes) -> bool:
    """JSON text decoded as UTF-8 holds a surrogate only through an escape (backslash, u, D800 to DFFF)."""
    return b"\\ud" in raw or b"\\uD" in raw


def shape_problem(payload: object, surrogates: bool) -> tuple[str, str] | None:
    """(why, how to write it instead) when ``payload`` cannot be read safely (nested too deep, or
    text with a lone surrogate, which names no file and no command a program could run), else None."""
    stack = [(payload, 0, "")]
    while stack:
        node, depth, where = stack.pop()
        items: Iterable[tuple]
        if isinstance(node, dict):
            items = node.items()
        elif isinstance(node, list):
            items = ((str(i), v) for i, v in enumerate(node))
        else:
            if surrogates and isinstance(node, str) and not _is_unicode(node):
                return f"{_shown(where)} holds text that is not valid Unicode (a lone surrogate)", _UNICODE
            continue
        if depth >= MAX_DEPTH:
            return f"it is nested more than {MAX_DEPTH} levels deep (at {_shown(where)})", _FLATTER
        for key, value in items:
            path = f"{where}.{key}" if where else key
            if surrogates and isinstance(key, str) and not _is_unicode(key):
                return f"{_shown(where)} has a key that is not valid Unicode (a lone surrogate)", _UNICODE
            if isinstance(value, (dict, list)) or (surrogates and isinstance(value, str)):
                stack.append((value, depth + 1, path[:120]))
    return None


_UNICODE = "valid Unicode text only"


def _shown(where: str) -> str:
    return (where[:60] + "…" if len(where) > 60 else where) or "it"


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _known() -> tuple[str, ...]:
    from cupcake.agents import catalog

    return catalog.events()


def _sent(ctx: Context, payload: dict) -> str | None:
    """The canonical event the agent itself named in its payload (without ``--event``), or None."""
    assert ctx.agent is not None  # the event was read with it
    try:
        return ctx.agent.parse(payload, None, ctx.env)[0]
    except ValueError:
        return None


def unknown(ctx: Context, incoming: Event, named: str | None) -> None:
    """``--event`` names an event no agent sends, and not the one the agent sent: a typo in the hook
    command, so no policy would ever apply. It is a failure, answered in the form of the event the
    agent did send, so that fail_mode "closed" blocks. (An event the agent itself names that Cupcake
    does not know yet is a newer client's: it is accepted, and no policy applies.)"""
    from cupcake.problems import suggestion

    bad = ctx.event
    known = _known()
    if isinstance(named, str) and named in known:
        ctx.event = named
        ctx.incoming = Event(named, incoming.payload, incoming.agent, incoming.project_dir)
    raise CupcakeError(
        f'unknown event "{bad}"{suggestion(bad, known)}: no agent sends it, so no policy applies to it;'
        " fix the hook command (`cupcake sync` writes it)"
    )
