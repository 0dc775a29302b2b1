"""The effective decision on one tool call: every layer that decides it in the agent (its own permission
rules, its permission mode, other hooks, managed settings) beside Cupcake's answer, and which one wins by
that agent's documented precedence. ``cupcake explain`` shows it for one event, ``cupcake doctor`` for a
sample one.

Each agent with readable layers has a ``layers`` module in its adapter (``gather`` and ``combine``); for
the others the view says plainly that their own settings are not read. What a layer says that cannot be
known (another hook is a program; a command line is not visible) is listed as a caveat, never guessed."""

from __future__ import annotations

from cupcake.agents.layer import ALLOW, ASK, DENY, NONE, UNKNOWN, Effective, Layer

# Cupcake's decision (as explain and the audit trail name it) -> what it tells the agent on a tool call.
CUPCAKE_SAYS = {"block": DENY, "feedback": DENY, "ask": ASK, "approve": ALLOW, "allow": NONE, "context": NONE}


def layers_module(agent: str):
    import importlib

    try:
        return importlib.import_module(f"cupcake.agents.{agent}.layers")
    except ModuleNotFoundError:
        return None


def cupcake_layer(agent: str, decision: str, by, text: str, where: str = "Cupcake's policies") -> Layer:
    from cupcake.agents import adapter

    says = CUPCAKE_SAYS.get(decision, UNKNOWN)
    mod = adapter(agent)
    if says == ASK and not mod.action_supported("ask", "PreToolUse"):
        says, text = NONE, f"{text} (this agent's hooks cannot ask)"
    if says == ALLOW and not mod.action_supported("approve", "PreToolUse"):
        says, text = NONE, f"{text} (this agent's hooks cannot approve)"
    why = f"{decision}" + (f" by {by}" if by else "") + (f": {text.splitlines()[0][:200]}" if text else "")
    if decision in ("allow", "context"):
        why = "no objection: the agent's own layers decide"
    return Layer("Cupcake", where, says, why)


def view(
    agent: str, event, root: str, env, decision: str, by=None, text: str = "", where=None, system_root: str = "/"
) -> dict:
    """Every layer for the canonical ``event`` in ``agent``, and the effective decision. ``where``: the
    deciding policy's file and line."""
    from cupcake.agents import adapter

    ours = cupcake_layer(agent, decision, by, text, where or "Cupcake's policies")
    mod = layers_module(agent)
    display = getattr(adapter(agent), "DISPLAY_NAME", agent)
    if mod is None:
        others = [
            Layer(
                "permission settings",
                display,
                UNKNOWN,
                f"{display}'s own permission settings are not read by Cupcake: what they say is not known",
            )
        ]
        found = [ours, *others]
        winner = ours if ours.says in (DENY, ASK) else None
        effective = Effective(
            ours.says if winner else UNKNOWN,
            winner,
            f"{display}: Cupcake's deny blocks; how it combines with the agent's own settings is not read here",
            [others[0].why],
        )
    else:
        gathered, facts = mod.gather(root, env, event, system_root)
        found = [ours, *gathered]
        effective = mod.combine(found, facts)
    return {
        "agent": agent,
        "display": display,
        "tool": event.tool,
        "layers": [layer.as_dict() for layer in found],
        "effective": effective.as_dict(),
    }


def text_lines(found: dict) -> list[str]:
    """The view for a person: each layer and what it says, then who wins and why."""
    lines = [f"Layers in {found['display']} for this call ({found['tool']}):"]
    for layer in found["layers"]:
        lines.append(f"  {layer['says'].upper():<7} {layer['kind']} ({layer['where']}): {layer['why']}")
    eff = found["effective"]
    winner = eff["winner"]
    who = f"{winner['kind']} in {winner['where']}" if winner else "nothing that can be read here"
    lines.append(f"Effective: {eff['decision'].upper()}, decided by {who}")
    lines.append(f"  by precedence: {eff['precedence']}")
    for caveat in eff["caveats"]:
        lines.append(f"  unless: {caveat}")
    return lines
