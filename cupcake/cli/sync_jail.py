"""``cupcake sync --agent NAME --sandbox``: turn the OS layer on for an agent (``cupcake.jail``).

The before-tool hook gets ``--jail`` (``--jail-unshare-net`` with ``--unshare-net``): Cupcake then answers
every shell call it allows with the same call run in its jail, and a Cupcake that cannot run blocks the
call. Before writing, sync runs ``true`` in the jail here and refuses, naming the cause and the fix, if
it cannot start: it never writes a combination that would block every call. For Codex it also turns
Codex's own sandbox off in the scope's ``config.toml`` (``cupcake.agents.codex.sandbox``), since a jail
cannot start inside it, and says what that trades.

A plain ``sync`` keeps the layer as it is; ``--sandbox --uninstall`` takes it off (and puts Codex's
sandbox setting back); ``--uninstall`` takes everything off."""

from __future__ import annotations

from cupcake.agents.hookfile import JAIL_FLAGS

ON = JAIL_FLAGS[0]
OFFLINE = JAIL_FLAGS[1]


def flag(unshare_net: bool) -> str:
    return OFFLINE if unshare_net else ON


def current_flag(commands) -> str:
    """The OS layer's flag on the hooks Cupcake wrote before (``hook_commands`` of the file), or ""."""
    for _event, command in commands:
        words = command.split("||", 1)[0].split()
        for name in (OFFLINE, ON):
            if name in words:
                return name
    return ""


class CannotStart(Exception):
    pass


def check(root: str, env, agent: str, jail: str) -> float:
    """The seconds ``true`` took in the jail here; ``CannotStart`` (cause and fix) when it cannot."""
    from cupcake.jail import probe

    found = probe.check(root, env, agent=agent, unshare_net=jail == OFFLINE)
    if not found.ok:
        raise CannotStart(f"Cupcake's jail cannot start here: {found.cause}. Fix: {found.fix}. Nothing was changed")
    return found.seconds


def codex_plan(scope: str, root: str, env, on: bool):
    """(path, old text, new text, the line replaced) for Codex's own sandbox setting, or None when
    nothing changes there."""
    from cupcake.agents.codex import sandbox

    path = sandbox.config_path(scope, root, env)
    old = sandbox.read(path)
    if on:
        new, replaced = sandbox.turned_off(old)
        return (path, old, new, replaced) if new != old else None
    record = sandbox.recorded(path)
    new = sandbox.restored(old, record["replaced"] if record else None)
    return (path, old, new, None) if new != old else None


def write_codex(plan, on: bool) -> None:
    from cupcake.agents.codex import sandbox

    path, _old, new, replaced = plan
    sandbox.write(path, new, replaced, turning_off=on)


def copilot_dirs() -> list[str]:
    """The directories outside the project a jailed command names (Copilot CLI asks before it runs one)."""
    import os

    from cupcake.jail import runtime

    return [os.path.dirname(runtime.interpreter()), runtime.package_dir()]


def copilot_dirs_note() -> str:
    import shlex

    flags = " ".join(f"--add-dir {shlex.quote(d)}" for d in copilot_dirs())
    return (
        "Copilot CLI asks before it runs a command that names a path outside the project, and a jailed command "
        f"names two directories of Cupcake's: run `copilot {flags}` (a headless run refuses every shell call "
        "without them; an interactive one asks once for each)."
    )


def what_it_does(agent: str, display: str, jail: str, seconds: float | None) -> list[str]:
    """What sync says once the layer is on."""
    timing = f" (`true` in it took {seconds * 1000:.0f} ms here)" if seconds is not None else ""
    lines = [
        f"OS layer: jailed. Each shell call Cupcake allows runs in Cupcake's jail{timing}: Cupcake's files are "
        "read-only to the command and every process it starts, its secrets unreadable, everything else as it was."
    ]
    if jail == OFFLINE:
        lines.append("The jail also has no network (--unshare-net): commands reach only their own loopback.")
    if agent == "codex":
        from cupcake.agents.codex import sandbox

        lines.append(sandbox.TRADE)
    if agent == "copilot":
        lines.append(copilot_dirs_note())
    lines.append(f"To turn the layer off: cupcake sync --agent {agent} --sandbox --uninstall ({display}'s hooks stay).")
    return lines
