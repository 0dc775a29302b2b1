"""A policy's ``agents = [...]``: the agents it applies to (cold path). Absent: every agent."""

from __future__ import annotations

from cupcake.problems import suggestion


def compile_agents(value, report):
    """The agents' names as a sorted tuple, None for every agent; an unknown name is an error naming
    the nearest known one (a typo would otherwise switch the policy off without a word)."""
    if value is None:
        return None
    from cupcake.agents import NAMES

    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None  # reported by the schema
    if not value:
        report(
            "`agents` is empty: name the agents this policy applies to, or leave the key out (every agent)", "agents"
        )
        return None
    unknown = [v for v in value if v not in NAMES]
    for name in unknown:
        report(f'unknown agent "{name}" in `agents`{suggestion(name, NAMES)} (known: {", ".join(NAMES)})', "agents")
    if unknown:
        return None
    return tuple(sorted(set(value)))
