"""Which events Claude Code calls Cupcake on, and which the loaded policies need (cold path).

A policy on an event that no installed hook calls never runs. So `cupcake sync` installs a hook for
every event a loaded policy names (and for the events Cupcake itself needs), `cupcake validate`
warns and `cupcake doctor` fails while a policy's event has no hook."""

from __future__ import annotations

from cupcake.agents.claude import hook_entries as entries
from cupcake.agents.claude.capabilities import EVENTS


def needed_events(compiled) -> tuple:
    """The events Cupcake needs hooks on: its own, then every event a policy in service names or
    ``[settings.eval_feedback]`` reads (in the order of the event list)."""
    named: set[str] = set()
    if compiled:
        named.update(p[1] for p in compiled.get("policies") or ())
        evals = (compiled.get("settings") or {}).get("eval_feedback")
        if evals:
            named.update(e for e in evals.get("events") or () if isinstance(e, str))
    extra = [e for e in EVENTS if e in named and e not in entries.EVENTS]
    return tuple(entries.EVENTS) + tuple(extra)


def installed_events(root: str, env):
    """{event: [settings file label, …]} of Cupcake's hooks in every scope's settings file, or None
    when no settings file has any (Cupcake is not hooked in at all: doctor reports that)."""
    from cupcake.agents.claude import settings_file
    from cupcake.agents.claude.hook_edit import ShapeError, find_cupcake
    from cupcake.agents.claude.settings_file import SettingsFileError
    from cupcake.agents.jsonedit import Document

    found: dict = {}
    for scope in entries.SCOPES:
        path = entries.settings_path(scope, root, env)
        label = "~/.claude/settings.json" if scope == "user" else entries.SCOPES[scope]
        try:
            loaded = settings_file.read(path, label)
            if not loaded.exists:
                continue
            handlers = find_cupcake(Document(loaded.text))
        except (SettingsFileError, ShapeError, RecursionError):
            continue  # doctor reports a settings file Claude Code cannot use
        for handler in handlers:
            found.setdefault(handler.event, []).append(label)
    return found or None


def unhooked(compiled, installed) -> list:
    """``(name, event, file, line)`` of every policy in service whose event no installed hook calls."""
    if not compiled or installed is None:
        return []
    return [(p[0], p[1], p[5], p[6]) for p in compiled.get("policies") or () if p[1] not in installed]


def unhooked_message(event: str) -> str:
    return f"no installed hook calls Cupcake on {event}, so this policy never runs; run `cupcake sync` to install one"
