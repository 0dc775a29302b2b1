"""``validate``'s warnings about what an agent cannot honour: an approve on Codex's PreToolUse, an ask on
Gemini CLI's, context where the agent takes none… (cold path). For the agents a policy applies to:
its ``agents``, else every agent whose hooks ``sync`` installed here, else Claude Code (the agent
``cupcake run`` answers by default)."""

from __future__ import annotations

import os

from cupcake.evaluate.compiled import Action, Policy
from cupcake.problems import WARNING, Problem

_KINDS = {"block": "block", "approve": "approve", "ask": "ask", "context": "add context"}


def _kind(action):
    """What the action asks of the agent (block, approve, ask, context), or None (soft text, side effects)."""
    if not action:
        return None
    action = Action(action)
    if action.kind == "check":
        return "block" if action.on_failure == "block" else None
    return action.kind if action.kind in _KINDS else None


def installed_agents(root: str, env) -> list[str]:
    """The agents whose hook configuration holds Cupcake's hooks."""
    from cupcake.agents.installers import configured_agents

    return list(dict.fromkeys(agent for agent, _scope, _path in configured_agents(root, env)))


def capability_warnings(compiled: dict, root: str, env) -> list[dict]:
    """One warning per policy that asks some of its agents for what they cannot do."""
    from cupcake.agents import DEFAULT, adapter

    installed = installed_agents(root, env) if root and os.path.isdir(root) else []
    default = installed or [DEFAULT]
    restricted = compiled.get("agents") or {}
    found = []
    for i, policy in enumerate(map(Policy, compiled.get("policies", ()))):
        name, event, action, file, line = policy.name, policy.event, policy[4], policy.file, policy.line
        kind = _kind(action)
        targets = restricted.get(i) or default
        named = i in restricted
        cannot, absent = [], []
        for agent in targets:
            mod = adapter(agent)
            if event not in mod.CAPABILITIES:
                if named:
                    absent.append(getattr(mod, "DISPLAY_NAME", agent))
                continue
            if kind is not None and not mod.action_supported(kind, event):
                cannot.append(getattr(mod, "DISPLAY_NAME", agent))
        if cannot:
            what = _KINDS[kind]
            found.append(
                Problem(
                    WARNING,
                    file,
                    line,
                    name,
                    f"{', '.join(cannot)} cannot {what} on {event} "
                    f"(see the capability tables: `python -m cupcake.agents.table`); there this policy's "
                    f"{kind} is not honoured",
                ).as_dict()
            )
        if absent:
            found.append(
                Problem(
                    WARNING, file, line, name, f"{', '.join(absent)} has no {event} event: this policy never runs there"
                ).as_dict()
            )
    return found
