"""What the agents can honour, taken together: the tables the policy compiler, ``validate`` and the
README check policies against (cold path)."""

from __future__ import annotations

from cupcake.agents import adapter, names
from cupcake.agents.claude import capabilities as claude


def _all():
    return [adapter(name) for name in names()]


def events() -> tuple[str, ...]:
    """Every canonical event name some agent sends: Claude Code's, in its order, then the others'."""
    seen: dict[str, None] = dict.fromkeys(claude.EVENTS)
    for agent in _all():
        seen.update(dict.fromkeys(agent.CAPABILITIES))
    return tuple(seen)


def canonical_tools():
    """The canonical tool names (Claude Code's, with its renamed and legacy ones): what matchers are checked against."""
    return claude.TOOL_NAMES


def memory_files() -> tuple[tuple[str, ...], str]:
    """(the names a directory's rule files go by, the user's own under HOME): the default agent's
    (``CLAUDE.md``), which `cupcake init` translates."""
    return claude.MEMORY_NAMES, claude.USER_MEMORY


def tool_events() -> frozenset[str]:
    """Events whose payload names a tool (a policy's matcher applies only to these)."""
    return claude.TOOL_EVENTS


def context_events() -> frozenset[str]:
    return claude.CONTEXT_EVENTS


def action_supported(kind: str, event: str) -> bool:
    """Whether an action ``kind`` can be answered on ``event`` at all (an error where not): approve, ask
    and context only where Claude Code, whose vocabulary policies are written in, honours them (DESIGN.md's
    "—" cells); a block or soft feedback always has an answer (a user-visible message where the event
    cannot block). What another agent cannot honour is a warning of ``validate``, per agent."""
    if kind not in ("approve", "ask", "context"):
        return True
    return claude.action_supported(kind, event)
