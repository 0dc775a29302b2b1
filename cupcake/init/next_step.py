"""What follows saved policies: Claude Code must call Cupcake, so init runs ``cupcake sync``."""

from __future__ import annotations

import os

from cupcake.project import PROJECT_FILE


def sync_next(root: str, env, io, enabled: bool = True) -> int:
    """Register Cupcake's hooks as `cupcake sync` does: in the project's .claude/settings.json when
    there is a project policy file, else in ~/.claude/settings.json (the user's policies apply in
    every project)."""
    scope = "project" if os.path.exists(os.path.join(root, PROJECT_FILE)) else "user"
    command = "cupcake sync" + (" --scope user" if scope == "user" else "")
    if not enabled:
        io.out(f"Next: run `{command}` to register Cupcake's hooks with Claude Code.")
        return 0
    from cupcake.cli.sync import sync

    io.out(f"\nRegistering the hooks (`{command}`):")
    code = sync(scope, env, root, out=io.out, err=io.err)
    if code != 0:
        io.err(f"The policies are saved, but the hooks are not registered: fix the above and run `{command}`.")
    return code
