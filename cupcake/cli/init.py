"""``cupcake init``: the typer command over ``cupcake.init`` (from CLAUDE.md rules to policies)."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import typer


def init(
    list_only: Annotated[
        bool, typer.Option("--list", help="Show the CLAUDE.md files found, and from where; write nothing.")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="With --list: print it as JSON.")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Save without asking (for scripts).")] = False,
    template: Annotated[
        bool,
        typer.Option(
            "--template",
            help="Write a starter cupcake.toml instead (the recommended rules on, examples to adapt); no agent needed.",
        ),
    ] = False,
    agent_command: Annotated[
        str | None,
        typer.Option(
            "--agent-command",
            metavar="COMMAND",
            help="The agent that translates (default: claude). Its prompt goes on stdin, or into an argument "
            "{prompt}, or a file named by {prompt_file}.",
        ),
    ] = None,
    agent: Annotated[
        str | None,
        typer.Option(
            "--agent",
            metavar="NAME",
            help="The agent that translates, run headless: claude (default), codex, gemini, copilot or droid. "
            "With --agent-command, that command (its program and options) is run the agent's way.",
        ),
    ] = None,
    attempts: Annotated[
        int,
        typer.Option(
            "--attempts",
            metavar="N",
            min=1,
            max=20,
            help="How many times the agent may try to write policies that load.",
        ),
    ] = 5,
    agent_timeout: Annotated[
        float, typer.Option("--agent-timeout", metavar="SECONDS", min=1, help="Seconds one run of the agent may take.")
    ] = 900.0,
    show_prompt: Annotated[
        bool, typer.Option("--show-prompt", help="Print the prompt the agent would get; run nothing, write nothing.")
    ] = False,
    sync: Annotated[
        bool, typer.Option("--sync/--no-sync", help="Register the hooks (`cupcake sync`) once the policies are saved.")
    ] = True,
) -> None:
    """Turn the rules in your CLAUDE.md files into policies, checked before you approve them.

    Finds every CLAUDE.md (here, above, below, ~/.claude/CLAUDE.md, and their @imports), asks an agent
    run headless (Claude Code by default, or --agent NAME) to translate them into cupcake.toml (project
    rules) and ~/.claude/cupcake.toml (your own rules), checks them with the loader `run` uses and sends
    every problem back until they load, then shows one line per policy and the diff. Nothing is saved
    without your yes (or --yes); a file replaced is kept as <name>.bak. Then it runs `cupcake sync` for
    that agent.
    """
    from cupcake.cli.options import agent_name
    from cupcake.cli.sync import sync as run_sync
    from cupcake.init.flow import Io, Options
    from cupcake.init.flow import init as run_init

    agent = agent_name(agent, "init") if agent is not None else None
    options = Options(
        list_only=list_only,
        json_out=json_out,
        yes=yes,
        template=template,
        show_prompt=show_prompt,
        agent_command=agent_command,
        agent=agent,
        attempts=attempts,
        agent_timeout=agent_timeout,
        sync=sync,
    )
    raise typer.Exit(run_init(os.environ, os.getcwd(), options, Io(typer.echo, _echo_err, _ask, run_sync)))


def _echo_err(message: str) -> None:
    typer.echo(message, err=True)


def _ask(question: str) -> bool:
    """A yes or no on stdin; the end of input is a no."""
    typer.echo(f"{question} [y/N] ", nl=False)
    line = sys.stdin.readline()
    if not line or not sys.stdin.isatty():  # a typed answer ends its own line; a piped one does not
        typer.echo(line.strip())
    return line.strip().lower() in ("y", "yes")
