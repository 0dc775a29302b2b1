"""What follows saved policies: the agent must call Cupcake, so init runs ``cupcake sync`` for it."""

from __future__ import annotations

import os

from cupcake.agents import DEFAULT
from cupcake.project import PROJECT_FILE


def sync_next(root: str, env, io, enabled: bool = True, agent: str | None = None) -> int:
    """Register Cupcake's hooks as `cupcake sync` does, for ``agent`` (the one that translated, else the
    default): in the project's shared hook file when there is a project policy file, else in the
    user's (the user's policies apply in every project)."""
    from cupcake.agents.installers import display_name

    agent = agent or DEFAULT
    scope = "project" if os.path.exists(os.path.join(root, PROJECT_FILE)) else "user"
    command = (
        "cupcake sync"
        + ("" if agent == DEFAULT else f" --agent {agent}")
        + (" --scope user" if scope == "user" else "")
    )
    if not enabled or io.sync is None:
        io.out(f"Next: run `{command}` to register Cupcake's hooks with {display_name(agent)}.")
        return 0
    io.out(f"\nRegistering the hooks (`{command}`):")
    code = io.sync(scope, env, root, out=io.out, err=io.err, agent=agent)
    if code != 0:
        io.err(f"The policies are saved, but the hooks are not registered: fix the above and run `{command}`.")
    return code
