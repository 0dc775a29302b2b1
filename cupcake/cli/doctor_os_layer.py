"""``cupcake doctor``: for each agent with Cupcake's hooks, which layer guards Cupcake's files from its
shell commands, and how to raise it, the same way for every agent (its installer says the rest).

- "sandboxed": the agent's own sandbox makes them read-only (where ``sync --sandbox`` turns it on: the
  installer's ``SANDBOX`` is "own", and its ``doctor_findings`` say so);
- "jailed": Cupcake's jail does (the ``--jail`` flag on the before-tool hook); the jail is started here to
  show it can, since a jail that cannot start refuses every shell call;
- "hook only": Cupcake's hook blocks the writes it can read, best effort; a program it cannot see into
  can still change them.

What the jail needs besides (Codex's own sandbox off, say) the installer's ``doctor_findings`` check."""

from __future__ import annotations

JAILED, HOOK_ONLY = "jailed", "hook only"
OFFLINE = "--jail-unshare-net"


def check(report, root: str, env, agent: str, flag: str) -> None:
    """``flag``: the jail's flag on the agent's hooks ("" none)."""
    from cupcake.agents import DEFAULT
    from cupcake.agents.installers import display_name, installer

    install, display = installer(agent), display_name(agent)
    own = install.SANDBOX == "own"
    name, prefix = ("protection", "protection level: ") if own else (f"os layer {agent}", f"{display}: OS layer: ")
    if flag:
        if not install.own_sandbox_on(root, env):  # inside the agent's own sandbox its findings say the rest
            _jailed(report, name, prefix, display, agent, root, env, flag)
        return
    if own:
        return  # its own sandbox or only the hook: the installer's doctor_findings say which
    named = "" if agent == DEFAULT else f" --agent {agent}"
    report.add(
        name,
        "ok",
        f"{prefix}{HOOK_ONLY} (Cupcake's hook blocks the writes it can read, best effort; a program it cannot see "
        f"into can still change Cupcake's files). To raise it to {JAILED}: `cupcake sync{named} --sandbox`",
    )


def _jailed(report, name: str, prefix: str, display: str, agent: str, root: str, env, flag: str) -> None:
    from cupcake.jail import probe

    found = probe.check(root, env, agent=agent, unshare_net=flag == OFFLINE)
    net = ", without network" if flag == OFFLINE else ""
    if found.ok:
        report.add(
            name,
            "ok",
            f"{prefix}{JAILED} (Cupcake's jail{net}: shell commands cannot write Cupcake's files; `true` in it "
            f"took {found.seconds * 1000:.0f} ms here)",
        )
        return
    report.add(
        name,
        "problem",
        f"{display}: the OS layer is on, but Cupcake's jail cannot start here, so every shell call is refused: "
        f"{found.cause}",
        found.fix,
    )
