"""What the agents can honour, taken together: the tables the policy compiler and ``validate`` check
policies against (cold path)."""

from __future__ import annotations

from cupcake.agents import adapter, names


def _all():
    return [adapter(name).capabilities for name in names()]


def events() -> tuple[str, ...]:
    """Every canonical event name some agent sends, in a stable order."""
    seen: dict[str, None] = {}
    for caps in _all():
        seen.update(dict.fromkeys(caps.EVENTS))
    return tuple(seen)


def tool_events() -> frozenset[str]:
    """Events whose payload names a tool (a policy's matcher applies only to these)."""
    return frozenset().union(*(caps.TOOL_EVENTS for caps in _all()))


def context_events() -> frozenset[str]:
    return frozenset().union(*(caps.CONTEXT_EVENTS for caps in _all()))


def action_supported(kind: str, event: str) -> bool:
    """Whether some agent can honour an action ``kind`` ("approve", "ask", "context", …) on ``event``."""
    return any(caps.action_supported(kind, event) for caps in _all())
