"""What an agent says about itself, where it says it: its version and its model, for the decisions
Cupcake records (telemetry). Knowledge as data, one row per agent: a fact an agent does not send is
absent, never guessed. Read on the hot path (plain dict lookups)."""

from __future__ import annotations

# agent -> fact -> (payload field, environment variable): the first that holds a non-empty string wins.
WHERE: dict[str, dict[str, tuple[str, str | None]]] = {
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
    for fact, (field, variable) in WHERE.get(agent, {}).items():
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
