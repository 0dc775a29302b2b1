"""Which calls run in the jail, and what is blocked instead (``cupcake run --jail``).

Every shell call Cupcake lets through gets the same decision with the command to run in its place:
the agent's command inside the jail. What the policies block stays blocked; soft feedback on a tool
call is a block already. Blocked instead, each with the cause and the fix:

- an ``ask`` where the agent cannot both ask and run a rewritten command (a plain ask would run the
  command outside the jail once the person agreed);
- a command that cannot be written into a jail (a NUL, too long), or a jail the hook can see cannot
  start (no bubblewrap where it looks);
- a run that failed (fail_mode "open" would let the call through as it is) when even the jail's
  protected set cannot be worked out.

An agent's shell tool Cupcake cannot rewrite never runs as it is: it is blocked too."""

from __future__ import annotations

import os

from cupcake.pipeline.response import APPROVE, ASK, BLOCK, ERROR, NONE, SOFT, Response

LAYER = "Cupcake's OS layer"
PRE_TOOL = "PreToolUse"
SHELLS = frozenset({"bash", "zsh", "sh", "dash", "ksh", "mksh"})


def applies(ctx) -> bool:
    """Whether this run answers a shell call with the OS layer on (cheap)."""
    if not ctx.options.get("jail"):
        return False
    event = ctx.event or _event_named(ctx)
    return event == PRE_TOOL


def _event_named(ctx):
    """The canonical event the hook command names (``--event``), when the payload could not be read."""
    try:
        return ctx.agent.parse({}, ctx.event_arg, ctx.env)[0] if ctx.event_arg else None
    except (ValueError, AttributeError, TypeError):
        return None


def shell_call(ctx) -> bool | None:
    """True for the agent's shell tool, False for another tool, None when the tool is unknown."""
    incoming = ctx.incoming
    if incoming is None:
        return None
    if incoming.tool == "Bash" or incoming.agent_tool in getattr(ctx.agent, "SHELL_TOOLS", ()):
        return True
    return False if incoming.tool else None


def response(ctx, prepared) -> Response:
    """The answer to render for this call: ``prepared`` with the jailed command, or a block."""
    cached = ctx.options.get("jail_response")
    if cached is not None and cached[0] is prepared:
        return cached[1]
    answer = _decide(ctx, prepared)
    ctx.options["jail_response"] = (prepared, answer)
    return answer


def _decide(ctx, prepared) -> Response:
    shell = shell_call(ctx)
    if shell is False:
        return prepared
    d = prepared.decision
    if d in (BLOCK, SOFT) or (d == ERROR and prepared.fail_closed):
        return prepared  # blocked already (a closed-mode failure is a block on this event)
    display = getattr(ctx.agent, "DISPLAY_NAME", ctx.agent.NAME)
    rewrite = getattr(ctx.agent, "REWRITE", None)
    if shell is None:
        failure = f" ({prepared.text.removeprefix('Cupcake: ')})" if d == ERROR and prepared.text else ""
        return _blocked(
            prepared,
            f"Cupcake could not tell which tool this call is for{failure}, and the OS layer never lets a command "
            "run outside its jail",
        )
    agent_event = ctx.payload.get("agent_event") if isinstance(ctx.payload, dict) else None
    tool = ctx.incoming.agent_tool or ctx.incoming.tool
    if not rewrite or tool not in rewrite["tools"] or (agent_event and agent_event not in rewrite["events"]):
        return _blocked(prepared, f"{display} cannot have this shell tool's command rewritten into Cupcake's jail")
    if d == ASK and not rewrite["ask"]:
        reason = prepared.reason or "a policy asks for a person's confirmation"
        return _blocked(
            prepared,
            f"{reason}. {display} cannot ask and also run the command in Cupcake's jail, so it is blocked: ask "
            "the user to run it themselves, or to change the policy",
        )
    command = ctx.incoming.tool_input.get("command")
    if not isinstance(command, str):
        return _blocked(prepared, "the shell call has no command text to run in the jail")
    try:
        line = _jailed(ctx, command, rewrite)
    except _Unjailable as exc:
        return _blocked(prepared, str(exc))
    if line == ctx.options.get("jail_wrapped"):
        return prepared  # the command is already this very jail (an agent that asks twice)
    return Response(
        d if d in (NONE, APPROVE, ASK, ERROR) else NONE,
        prepared.text,
        prepared.soft_text,
        prepared.reason,
        prepared.context,
        prepared.fail_closed,
        line,
    )


class _Unjailable(Exception):
    pass


def _jailed(ctx, command: str, rewrite: dict) -> str:
    from cupcake.jail import command as commands

    root = ctx.root or _root(ctx)
    protected = ctx.policies.get("protected") if ctx.policies else None
    if not protected:
        from cupcake.protection.hook import protected_defaults

        protected = protected_defaults(root, ctx.env)
    if not _darwin() and not commands.bwrap_found():
        raise _Unjailable(
            f"bubblewrap is not installed (looked for {', '.join(commands.BWRAP_PLACES)}; never on the agent's "
            "PATH), so the command cannot run in the jail. Fix: install it (Debian, Ubuntu: `sudo apt-get install "
            "bubblewrap`), then run `cupcake doctor`"
        )
    try:
        return commands.jailed_command(
            command,
            root=root,
            env=ctx.env,
            protected=protected,
            shell=_shell(rewrite, ctx.env),
            agent=ctx.agent.NAME,
            unshare_net=bool(ctx.options.get("jail_unshare_net")),
        )
    except commands.Unjailable as exc:
        raise _Unjailable(str(exc)) from None


def _darwin() -> bool:
    import sys

    return sys.platform == "darwin"


def _root(ctx) -> str:
    from cupcake.project import find_root

    incoming = ctx.incoming
    return find_root(incoming.project_dir if incoming else ctx.agent.project_dir(ctx.env), incoming and incoming.cwd)


def _shell(rewrite: dict, env) -> str:
    """The shell the jailed command runs with, by name (the launcher finds it in a fixed place): the
    agent's own (bash), or for agents that use the user's login shell, that of ``$SHELL`` when it is a
    POSIX shell."""
    if rewrite.get("shell") == "user":
        name = os.path.basename(env.get("SHELL") or "")
        if name in SHELLS:
            return name
    return "bash"


def _blocked(prepared, why: str) -> Response:
    text = f"{LAYER}: {why}."
    return Response(BLOCK, text=text, context=prepared.context)
