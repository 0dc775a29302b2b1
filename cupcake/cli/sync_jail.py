"""The OS layer, turned on by ``cupcake sync`` (``--sandbox`` where the agent's own sandbox is not the
layer, ``--jail`` everywhere): Cupcake's jail (``cupcake.jail``).

The before-tool hook gets ``--jail`` (``--jail-unshare-net`` with ``--unshare-net``): Cupcake then answers
every shell call it allows with the same call run in its jail, and a Cupcake that cannot run blocks the
call. Before writing, sync runs ``true`` in the jail here and refuses, naming the cause and the fix, if
it cannot start: it never writes a combination that would block every call. What else an agent needs
changed for the jail (Codex's own sandbox, which cannot hold it) its installer says (``os_layer``).

A plain ``sync`` keeps the layer as it is; the layer's option with ``--uninstall`` takes it off (and puts
what the installer changed back); ``--uninstall`` alone takes everything off."""

from __future__ import annotations

from cupcake.agents.hook_command import JAIL_FLAGS

ON = JAIL_FLAGS[0]
OFFLINE = JAIL_FLAGS[1]


def flag(unshare_net: bool) -> str:
    return OFFLINE if unshare_net else ON


class CannotStart(Exception):
    pass


def check(root: str, env, agent: str, jail: str) -> float:
    """The seconds ``true`` took in the jail here; ``CannotStart`` (cause and fix) when it cannot."""
    from cupcake.jail import probe

    found = probe.check(root, env, agent=agent, unshare_net=jail == OFFLINE)
    if not found.ok:
        raise CannotStart(f"Cupcake's jail cannot start here: {found.cause}. Fix: {found.fix}. Nothing was changed")
    return found.seconds


def jail_dirs() -> list[str]:
    """The directories outside the project a jailed command names (its interpreter, Cupcake's package)."""
    import os

    from cupcake.jail import runtime

    return [os.path.dirname(runtime.interpreter()), runtime.package_dir()]


def what_it_does(install, jail: str, seconds: float | None, off: str) -> list[str]:
    """What sync says once the layer is on; ``off``: the command that turns it off."""
    timing = f" (`true` in it took {seconds * 1000:.0f} ms here)" if seconds is not None else ""
    lines = [
        f"OS layer: jailed. Each shell call Cupcake allows runs in Cupcake's jail{timing}: Cupcake's files are "
        "read-only to the command and every process it starts, its secrets unreadable, everything else as it was."
    ]
    if jail == OFFLINE:
        lines.append("The jail also has no network (--unshare-net): commands reach only their own loopback.")
    lines.extend(install.jail_notes(jail_dirs()))
    lines.append(f"To turn the layer off: {off} (the hooks stay).")
    return lines
