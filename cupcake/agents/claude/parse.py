"""Claude Code's payload on the way in: it is already canonical (Claude Code's vocabulary is Cupcake's).

What this adds: the event name (``--event`` wins over the payload's ``hook_event_name``) and the project
directory Claude Code names in the hook's environment."""

from __future__ import annotations

from cupcake.agents.claude.capabilities import PROJECT_DIR_ENV


def parse(raw: dict, event_arg: str | None, env) -> tuple[str | None, dict, str | None]:
    """(canonical event name or None, canonical payload, project directory or None)."""
    named = raw.get("hook_event_name")
    event = event_arg or (named if isinstance(named, str) else None)
    return event, raw, project_dir(env)


def project_dir(env) -> str | None:
    """The project directory Claude Code names in the hook's environment, or None."""
    return env.get(PROJECT_DIR_ENV) or None
