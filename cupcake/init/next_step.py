"""What follows a saved cupcake.toml: Claude Code must be told to call Cupcake (``cupcake sync``)."""

from __future__ import annotations


def sync_next(root: str, env, io) -> int:
    """Register Cupcake's hooks after init saved the policies.

    ``cupcake sync`` is not part of this version yet, so init tells the person to run it next.
    """
    io.out("Next: run `cupcake sync` to register Cupcake's hooks with Claude Code.")
    return 0
