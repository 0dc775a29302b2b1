"""One adapter per agent: its payload in (``parse``), its answer out (``render``), what it can honour
(``capabilities``) and its settings files. Nothing outside this package knows an agent's field names.

The registry maps the names ``cupcake run --agent NAME`` takes to adapter modules, imported on first use."""

from __future__ import annotations

DEFAULT = "claude"

# name -> the package of its adapter: NAME, parse, render, project_dir, CAPABILITIES (canonical event ->
# what the agent can do there), TOOLS (its tool names -> canonical), SHELL_TOOLS, FILE_WRITE_TOOLS,
# PROJECT_DIR_ENV, ANSWER_CAP, action_supported(kind, event); and an ``install`` module (its hook settings).
ADAPTERS = {
    "claude": "cupcake.agents.claude",
    "codex": "cupcake.agents.codex",
    "gemini": "cupcake.agents.gemini",
    "copilot": "cupcake.agents.copilot",
    "droid": "cupcake.agents.droid",
    "cursor": "cupcake.agents.cursor",
}
NAMES = tuple(ADAPTERS)


class UnknownAgent(ValueError):
    """``--agent`` named no adapter."""


def adapter(name: str = DEFAULT):
    """The adapter module for ``name`` (any case: ``Codex`` is ``codex``)."""
    module = ADAPTERS.get(name) if isinstance(name, str) else None
    if module is None:
        module = ADAPTERS[canonical(name)]
    return __import__(module, fromlist=("parse",))


def canonical(name) -> str:
    """The registered name ``name`` stands for, whatever its case; ``UnknownAgent`` says which name was
    probably meant (the error path only: nothing here runs for a name that is right)."""
    if isinstance(name, str):
        lowered = name.strip().lower()
        if lowered in ADAPTERS:
            return lowered
        import difflib

        close = difflib.get_close_matches(lowered, NAMES, 1, 0.6)
        hint = f' (did you mean "{close[0]}"?)' if close else ""
    else:
        hint = ""
    raise UnknownAgent(f"unknown agent {name!r}{hint}; the agents are {', '.join(NAMES)}")


def names() -> tuple[str, ...]:
    return NAMES


# The agents `cupcake init --agent NAME` can run headless: each has a ``translator`` module whose
# ``Translator`` class runs its CLI (Cursor has no headless mode that can write the policy files).
HEADLESS = ("claude", "codex", "gemini", "copilot", "droid")


def translator(name: str):
    """The class that runs agent ``name`` headless for `cupcake init` (``name`` in ``HEADLESS``)."""
    if name not in HEADLESS:
        raise UnknownAgent(f"no translator for agent {name!r} (known: {', '.join(HEADLESS)})")
    return __import__(f"{ADAPTERS[name]}.translator", fromlist=("Translator",)).Translator


# The agents `cupcake doctor --live` can run against a stand-in model: each has a ``live`` module
# whose ``Runner`` starts its headless CLI.
LIVE = ("claude", "gemini")


def live_runner(name: str):
    """The runner of ``cupcake doctor --live`` for agent ``name`` (one of ``LIVE``)."""
    if name not in LIVE:
        raise UnknownAgent(f"no live check for agent {name!r} (known: {', '.join(LIVE)})")
    return __import__(f"{ADAPTERS[name]}.live", fromlist=("Runner",)).Runner()


def project_dir_in(env) -> str | None:
    """The project directory an agent names in the environment (a command run from inside an agent), or
    None: each adapter reads its own variable, the default agent's first."""
    for name in NAMES:
        found = adapter(name).project_dir(env)
        if found:
            return found
    return None


# ## What an agent says about itself, where it says it (for the decisions telemetry records) #############
# Its version and its model, one row per agent: a fact an agent does not send is absent, never guessed.
# agent -> fact -> (payload field, environment variable): the first that holds a non-empty string wins.
FACTS: dict[str, dict[str, tuple[str, str | None]]] = {
    "claude": {"model": ("model", None)},  # SessionStart carries the model; no event carries the version
    "codex": {"model": ("model", None)},
    "gemini": {},
    "copilot": {},
    "droid": {},
    "cursor": {"version": ("cursor_version", "CURSOR_VERSION"), "model": ("model", None)},
}

_LONGEST = 200


def facts(agent: str, payload, env) -> dict:
    """``{"version": …, "model": …}``, with only what the agent sent."""
    out = {}
    for fact, (field, variable) in FACTS.get(agent, {}).items():
        value = payload.get(field) if isinstance(payload, dict) and field else None
        if not (isinstance(value, str) and value) and variable:
            value = env.get(variable)
        if isinstance(value, str) and value:
            out[fact] = value[:_LONGEST]
    return out


def call_id(payload):
    """The id the agent gave this tool call (the canonical payload's ``tool_use_id``), or None."""
    value = payload.get("tool_use_id") if isinstance(payload, dict) else None
    return value[:_LONGEST] if isinstance(value, str) and value else None


# ## The capability tables' rows (every adapter's CAPABILITIES is made of these) ############################


def row(agent_events, block, ask, approve, context, seen_as, verified, notes="") -> dict:
    """One line of a CAPABILITIES table."""
    if isinstance(agent_events, str):
        agent_events = (agent_events,)
    return {
        "agent_events": tuple(agent_events),
        "block": block,
        "ask": ask,
        "approve": approve,
        "context": context,
        "reason_seen_as": seen_as,
        "verified": verified,
        "notes": notes,
    }


def supported(capabilities: dict, kind: str, event: str) -> bool:
    """Whether ``kind`` (block, ask, approve, context; anything else: yes) works on ``event``."""
    line = capabilities.get(event)
    if kind in ("block", "ask", "approve", "context"):
        return bool(line and line[kind])
    return True
