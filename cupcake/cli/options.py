"""Option values the typer commands share, read once at the edge."""

from __future__ import annotations

import typer


def agent_name(name: str, command: str) -> str:
    """``--agent`` as the registry names it (``Codex`` is codex); a name that is no agent is a usage
    error (exit 2) that says which one was probably meant."""
    from cupcake import agents

    try:
        return agents.canonical(name)
    except agents.UnknownAgent as exc:
        typer.echo(f"cupcake {command}: --agent: {exc}", err=True)
        raise typer.Exit(2) from None
