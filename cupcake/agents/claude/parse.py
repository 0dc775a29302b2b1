"""Claude Code's payload on the way in: it is already canonical (Claude Code's vocabulary is Cupcake's).

What this adds: the event name (``--event`` wins over the payload's ``hook_event_name``) and the project
directory Claude Code names in the hook's environment."""

from __future__ import annotations

from cupcake.agents.claude.capabilities import PROJECT_DIR_ENV


def parse(raw: dict, event_arg: str | None, env) -> tuple[str, dict, str | None]:
    """(canonical event name, canonical payload, project directory or None). The payload is read as it
    is (unknown fields kept), with ``agent_event`` and ``agent_tool`` beside, as every adapter gives them."""
    if not isinstance(raw, dict):
        raise ValueError(f"the hook event must be a JSON object, got {type(raw).__name__}")
    named = raw.get("hook_event_name")
    event = event_arg or (named if isinstance(named, str) else None)
    if not event:
        raise ValueError("no event: pass --event <Event> or send hook_event_name")
    payload = dict(raw)  # the agent's dict is left as it came
    payload["agent_event"] = event
    tool = raw.get("tool_name")
    if isinstance(tool, str):
        payload["agent_tool"] = tool
    return event, payload, project_dir(env)


def project_dir(env) -> str | None:
    """The project directory Claude Code names in the hook's environment, or None."""
    return next((env[name] for name in PROJECT_DIR_ENV if env.get(name)), None)
