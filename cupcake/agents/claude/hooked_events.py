"""Which events Claude Code calls Cupcake on: the loaded policies' (cold path).

A policy on an event that no installed hook calls never runs. So `cupcake sync` installs a hook for
every event a loaded policy names (and for the events Cupcake itself needs); `cupcake validate` warns
and `cupcake doctor` fails while a policy's event has no hook (``installers.unhooked``)."""

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
