"""``cupcake jail -- PROGRAM [ARGS...]``: run one command in Cupcake's jail, in this project, as an
agent's shell call would run with the OS layer on (the same launcher, the same description): Cupcake's
files read-only, its secrets unreadable, everything else as it was. For people and scripts; the exit
status is the command's (126 when the jail could not start, with the reason)."""

from __future__ import annotations

import os
import shlex
from typing import Annotated

import typer


def jail(
    command: Annotated[list[str], typer.Argument(metavar="PROGRAM", hidden=True)],  # in the docstring: no <list[str]>
    unshare_net: Annotated[
        bool, typer.Option("--unshare-net", help="No network in the jail (its own loopback only).")
    ] = False,
    shell: Annotated[
        str, typer.Option("--shell", metavar="NAME", help="The shell the command runs with (bash, zsh, sh, ...).")
    ] = "bash",
) -> None:
    """Run a command in Cupcake's jail: `cupcake jail -- PROGRAM [ARGS...]`. The OS layer's own jail, as each
    allowed shell call of an agent runs with `cupcake sync --agent NAME --sandbox`: Cupcake's files read-only,
    its secrets unreadable, everything else as it was. The exit status is the command's (126: not run)."""
    from cupcake.agents import project_dir_in
    from cupcake.jail import decide, probe
    from cupcake.project import find_root

    root = find_root(project_dir_in(os.environ), os.getcwd())
    if shell not in decide.SHELLS:
        typer.echo(f"cupcake jail: --shell must name one of {', '.join(sorted(decide.SHELLS))}", err=True)
        raise typer.Exit(2)
    try:
        line = decide.jailed_command(
            shlex.join(command),
            root=root,
            env=os.environ,
            protected=probe.protected_set(root, os.environ),
            shell=shell,
            unshare_net=unshare_net,
        )
    except decide.Unjailable as exc:
        typer.echo(f"cupcake jail: {exc}", err=True)
        raise typer.Exit(126) from None
    os.execv("/bin/sh", ["/bin/sh", "-c", line])
