"""The agents Cupcake speaks to, by the name ``--agent`` takes; each adapter is imported only
when asked for (one agent per run)."""

from __future__ import annotations

# "claude" still points at the module-shaped adapter (answer/render, no parse/CAPABILITIES yet).
MODULES = {
    "claude": "cupcake.agents.claude_code",
    "codex": "cupcake.agents.codex",
    "gemini": "cupcake.agents.gemini",
    "copilot": "cupcake.agents.copilot",
    "droid": "cupcake.agents.droid",
    "cursor": "cupcake.agents.cursor",
}
NAMES = tuple(MODULES)
DEFAULT = "claude"


def adapter(name: str):
    """The adapter module for ``name``; ValueError naming the known agents for anything else."""
    module = MODULES.get(name) if isinstance(name, str) else None
    if module is None:
        raise ValueError(f"unknown agent {name!r}: use one of {', '.join(NAMES)}")
    from importlib import import_module

    return import_module(module)
