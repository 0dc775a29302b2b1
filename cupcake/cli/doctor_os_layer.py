"""``cupcake doctor``: for each agent with Cupcake's hooks, which layer guards Cupcake's files from its
shell commands, and how to raise it.

- "sandboxed": the agent's own sandbox makes them read-only (Claude Code's, `cupcake sync --sandbox`);
- "jailed": Cupcake's jail does (`cupcake sync --agent NAME --sandbox`); the jail is started here to
  show it can, since a jail that cannot start refuses every shell call;
- "hook only": Cupcake's hook blocks the writes it can read, best effort; a program it cannot see into
  can still change them.

Codex: its own sandbox on (``sandbox_mode`` workspace-write or read-only) cannot hold the jail, so
every jailed command would be refused: that is a problem, with the fix."""

from __future__ import annotations

JAILED, SANDBOXED, HOOK_ONLY = "jailed", "sandboxed", "hook only"


def check(report, root: str, env, claude_commands, others) -> None:
    """``claude_commands``: Cupcake's Claude Code hook commands; ``others``: (agent, scope, path) found."""
    from cupcake.agents import adapter
    from cupcake.cli.sync_agent import hook_commands
    from cupcake.cli.sync_jail import current_flag

    if claude_commands is not None:
        _claude(report, root, env, claude_commands)
    for agent, _scope, path in others:
        display = getattr(adapter(agent), "DISPLAY_NAME", agent)
        flag = current_flag(hook_commands(path, agent))
        check_name = f"os layer {agent}"
        if not flag:
            report.add(
                check_name,
                "ok",
                f"{display}: OS layer: {HOOK_ONLY} (Cupcake's hook blocks the writes it can read, best effort; a "
                "program it cannot see into can still change Cupcake's files). To raise it to jailed: "
                f"`cupcake sync --agent {agent} --sandbox`",
            )
            continue
        _jailed(report, check_name, display, agent, root, env, flag)
        if agent == "codex":
            _codex_sandbox(report, check_name, root, env)


def _claude(report, root: str, env, commands) -> None:
    from cupcake.agents.claude.hook_entries import jail_flag
    from cupcake.agents.claude.protections import INSTALL_HINT, level, sandbox_missing

    found, reasons = level(root, env)
    flag = next((jail_flag(c) for c in commands if jail_flag(c)), "")
    if found == "sandboxed":
        report.add(
            "protection",
            "ok",
            "protection level: sandboxed (Claude Code's own sandbox: Bash cannot write Cupcake's files)"
            + (
                "; Cupcake's jail is on too, and cannot start inside it: run `cupcake sync --jail --uninstall`"
                if flag
                else ""
            ),
        )
        return
    if flag:
        _jailed(report, "protection", "Claude Code", "claude", root, env, flag, prefix="protection level: ")
        return
    fix = "run `cupcake sync --sandbox` (Claude Code's own sandbox) or `cupcake sync --jail` (Cupcake's)"
    if sandbox_missing(env):
        fix = f"install bubblewrap and socat (`{INSTALL_HINT}`), then " + fix
    # Not a fault of the installation (the hook works), so not a warning: the level and how to raise it.
    report.add(
        "protection",
        "ok",
        "protection level: hook only (" + "; ".join(reasons) + "): Cupcake's hook blocks the writes it "
        f"recognises, best effort. To raise it to sandboxed: {fix}",
    )


def _jailed(report, check_name, display, agent, root, env, flag, prefix="") -> None:
    from cupcake.jail import probe

    found = probe.check(root, env, agent=agent, unshare_net=flag == "--jail-unshare-net")
    net = ", without network" if flag == "--jail-unshare-net" else ""
    if found.ok:
        report.add(
            check_name,
            "ok",
            f"{prefix or display + ': OS layer: '}{JAILED} (Cupcake's jail{net}: shell commands cannot write "
            f"Cupcake's files; `true` in it took {found.seconds * 1000:.0f} ms here)",
        )
        return
    report.add(
        check_name,
        "problem",
        f"{display}: the OS layer is on, but Cupcake's jail cannot start here, so every shell call is refused: "
        f"{found.cause}",
        found.fix,
    )


def _codex_sandbox(report, check_name: str, root: str, env) -> None:
    from cupcake.agents.codex import sandbox

    mode, where = sandbox.in_effect(root, env)
    if mode and mode != sandbox.VALUE:
        report.add(
            check_name,
            "problem",
            f'Codex: its own sandbox is on (sandbox_mode = "{mode}" in {where}): Cupcake\'s jail cannot start '
            "inside it, so every shell call would be refused",
            "run `cupcake sync --agent codex --sandbox` (it turns Codex's sandbox off where the jail replaces it)",
        )
