"""Helpers the agent adapters share: reading an agent's event into the canonical one, and writing
answers. On the hot path: no ``json``, no ``re`` (``cupcake.speedups`` does the JSON)."""

from __future__ import annotations

from cupcake import speedups
from cupcake.agents import row, supported  # noqa: F401 (the adapters' tables import them from here)
from cupcake.pipeline import answer_text as feedback
from cupcake.pipeline.response import BLOCK, ERROR

CAP = 10_000  # characters: the answer cap where an agent documents none (Claude Code's)


def join(*parts: str) -> str:
    return "\n\n".join(p for p in parts if p)


def cap(text: str, *pieces: str, limit: int = CAP) -> str:
    """``text`` within the agent's cap, cutting the longest piece (command output) first."""
    return feedback.cap(text, pieces or (text,), limit)


def with_context(context: str, text: str, limit: int = CAP) -> str:
    """Context and soft text on one answer: context first, both within the cap."""
    return feedback.cap(join(context, text), (context, text), limit)


def json_bytes(out: dict) -> bytes:
    """Compact JSON and a newline; a lone surrogate becomes '?' rather than an encoding error."""
    return speedups.json_dumps(out).encode("utf-8", "replace") + b"\n"


def text_bytes(text: str) -> bytes:
    return text.encode("utf-8", "replace") + b"\n" if text else b""


def note(warnings) -> str:
    return "\n".join(w for w in warnings if w)


class Blocked:
    """A block whose text is the run's error (fail_mode = "closed")."""

    __slots__ = ("text",)
    decision = BLOCK
    context = ""
    soft_text = ""
    reason = ""
    command = None
    fail_closed = False
    from_error = True  # the user is told too, as with Claude Code

    def __init__(self, text: str):
        self.text = text


_NEVER_CLOSED = frozenset({"Stop", "SubagentStop"})  # the work is done: a block there only loops the agent


def settle(response, event: str, blocking) -> object:
    """The response to render: a closed-mode error becomes a block on an event that can block (not
    at a stop: blocking there protects nothing and makes the agent continue, again and again)."""
    if response.decision == ERROR and response.fail_closed and event in blocking and event not in _NEVER_CLOSED:
        return Blocked(response.text)
    return response


def event_names(event_arg, named, events: dict, agent_names: dict) -> tuple[str, str]:
    """(canonical event, the agent's event) from ``--event`` (which wins) or the payload's name;
    either may be the agent's name or the canonical one. Unknown names pass through unchanged."""
    name = event_arg if isinstance(event_arg, str) and event_arg else named
    if not isinstance(name, str) or not name:
        raise ValueError("no event: pass --event <Event> or send the agent's event name in the payload")
    canonical = events.get(name)
    if canonical is not None:
        agent = name
    else:
        canonical, agent = name, agent_names.get(name, name)
    if isinstance(named, str) and named != agent and events.get(named) == canonical:
        agent = named  # --event PreToolUse, and the payload says which of the agent's events it was
    return canonical, agent


def require_object(raw) -> dict:
    if not isinstance(raw, dict):
        raise ValueError(f"the hook event must be a JSON object, got {type(raw).__name__}")
    return raw


def copy_key(d: dict, src: str, dst: str) -> None:
    """Give ``d[dst]`` the value of ``d[src]`` unless ``dst`` is already there."""
    if src in d and dst not in d:
        d[dst] = d[src]


def object_from(value) -> tuple[dict, bool]:
    """(dict, ok) from an object or a JSON string holding one; anything else gives ({}, False)."""
    if isinstance(value, dict):
        return dict(value), True
    if isinstance(value, (str, bytes)):
        try:
            parsed = speedups.json_loads(value)
        except Exception:  # ValueError; SystemError from the C scanner on some malformed objects
            return {}, False
        if isinstance(parsed, dict):
            return parsed, True
        return {}, False
    if value is None:
        return {}, True
    return {}, False


def set_tool(payload: dict, agent_tool, tools: dict, field_map: dict | None = None) -> None:
    """Canonical ``tool_name`` (the agent's name kept as ``agent_tool``) and canonical
    ``tool_input`` keys beside the agent's own (``field_map``: agent key -> canonical key)."""
    if not isinstance(agent_tool, str):
        return
    payload["agent_tool"] = agent_tool
    payload["tool_name"] = tools.get(agent_tool, agent_tool)
    tool_input = payload.get("tool_input")
    if field_map and isinstance(tool_input, dict):
        tool_input = dict(tool_input)
        done = set()
        for src, dst in field_map.items():  # the agent's own field wins: its tool reads that one, not a
            if src in tool_input and dst not in done:  # canonical-looking decoy sent beside it
                tool_input[dst] = tool_input[src]
                done.add(dst)
        payload["tool_input"] = tool_input


# What Rust's str::trim removes (Unicode White_Space): Codex trims every patch header line with it.
_RUST_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
_FILE_HEADERS = ("*** add file: ", "*** delete file: ", "*** update file: ", "*** move to: ")


def patch_fields(patch: str) -> dict:
    """What a policy needs from an apply_patch text: the files it touches (``file_path`` the first,
    ``file_paths`` all), the lines it adds (``new_string``/``content``) and removes (``old_string``).

    Headers are read the way Codex's own parser reads them, and then some: lines split at newlines
    (a carriage return before one dropped), each trimmed of Unicode white space (``  *** Delete File:
    cupcake.toml`` deletes cupcake.toml), markers in any case; a path is taken as Codex takes it and
    also trimmed, so no spelling Codex accepts names a file Cupcake does not see."""
    paths: list[str] = []
    added, removed, only_adds = [], [], True
    for line in patch.split("\n"):
        line = line.removesuffix("\r")
        trimmed = line.strip(_RUST_SPACE)
        lowered = trimmed[:20].lower()
        header = next((h for h in _FILE_HEADERS if lowered.startswith(h)), None)
        if header is not None:
            path = trimmed[len(header) :]
            for form in (path, path.strip()):
                if form and form not in paths:
                    paths.append(form)
            if header != "*** add file: ":
                only_adds = False
        elif line.startswith("+") and not line.startswith("+++"):
            added.append(line[1:])
        elif line.startswith("-") and not line.startswith("---"):
            removed.append(line[1:])
    out = {"file_paths": paths, "new_string": "\n".join(added), "old_string": "\n".join(removed)}
    if paths:
        out["file_path"] = paths[0]
    if only_adds and paths:
        out["content"] = out["new_string"]
    return out


def rewrite(events, tools, *, ask: bool, allow: bool, shell: str, verified: str, notes: str = "") -> dict:
    """What an agent does with a rewritten shell call (Cupcake's OS layer): the agent's events that
    take one, its shell tools whose command may be rewritten, whether a rewrite rides on an ask,
    whether it needs an explicit allow to be applied at all, and the shell its commands run in
    ("bash", or "user": the person's login shell)."""
    return {
        "events": frozenset(events),
        "tools": frozenset(tools),
        "ask": ask,
        "allow": allow,
        "shell": shell,
        "verified": verified,
        "notes": notes,
    }


def os_layer(layers, turn_on: str, trades: str, verified: str) -> dict:
    """How an agent's shell commands are kept off Cupcake's files by the operating system: ``layers``
    ("sandboxed": its own sandbox; "jailed": Cupcake's jail), the sync command that turns it on, what it
    trades, and how it was verified (the README's security model table is generated from these)."""
    return {"layers": tuple(layers), "turn_on": turn_on, "trades": trades, "verified": verified}


def rewritten_input(tool_input, command: str) -> dict:
    """The tool's whole input with ``command`` in place (every client replaces the input, or
    validates it whole: the other keys must stay)."""
    out = dict(tool_input) if isinstance(tool_input, dict) else {}
    out["command"] = command
    return out


def project_dir_from(env, names) -> str | None:
    """The first of the environment variables ``names`` that is set (the agent's project directory), or None."""
    return next((env[name] for name in names if env.get(name)), None)
