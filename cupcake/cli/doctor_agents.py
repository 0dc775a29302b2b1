"""``cupcake doctor`` for every other agent it finds configured: the hook file, the executable its
commands name, Codex's trust, and a sample before-tool event through the hook command, read back
in that agent's answer format."""

from __future__ import annotations

import os

from cupcake.agents.installers import configured_agents, executable_in, hook_commands
from cupcake.cli.sync import scope_label


def check_agents(report, root: str, env, found=None) -> list:
    """Add each configured agent's findings to ``report``; returns the (agent, scope, path) found."""
    from cupcake.agents import adapter
    from cupcake.agents.claude import probe
    from cupcake.agents.samples import read_decision, sample_pre_tool
    from cupcake.cli.doctor import OK, PROBLEM, WARNING, resolve

    found = configured_agents(root, env) if found is None else found
    for agent, scope, path in found:
        display = getattr(adapter(agent), "DISPLAY_NAME", agent)
        label = scope_label(scope, path, root, env)
        commands = hook_commands(path, agent)
        check = f"agent {agent}"
        report.add(check, OK, f"{display}: Cupcake's hooks in {label} ({len(commands)} events)")
        event, payload = sample_pre_tool(agent, root)
        command = next((c for e, c in commands if e == event), None)
        exe = executable_in(command or commands[0][1]) if commands else None
        if exe is not None and resolve(exe, root, env) is None:
            report.add(
                check,
                PROBLEM,
                f"{display}: `{exe}` (the hooks in {label}) is not found",
                f"install Cupcake there, or run `cupcake sync --agent {agent} --command <path>`",
            )
            continue
        if agent == "codex":
            _codex_trust(report, check, path, env, WARNING, OK)
        if command is None:
            report.add(
                check,
                WARNING,
                f"{display}: no {event} hook in {label}: tool calls are not checked",
                f"run `cupcake sync --agent {agent}`",
            )
            continue
        outcome = probe.run_hook(command, root, env, payload)
        timing = f"{outcome.seconds * 1000:.0f} ms"
        if outcome.error or outcome.exit_code != 0:
            tail = (outcome.stderr.strip().splitlines() or [""])[-1][:300]
            report.add(
                check,
                PROBLEM,
                f"{display}: a sample {event} through the hook failed "
                f"({outcome.error or f'exit {outcome.exit_code}'}): {tail} ({timing})",
                "run the hook command by hand to see why",
            )
            continue
        try:
            decision, reason, message = read_decision(outcome.stdout)
        except ValueError:
            report.add(
                check,
                PROBLEM,
                f"{display}: the hook printed something that is not JSON: {outcome.stdout[:200]!r}",
                "check what the hook command runs",
            )
            continue
        if (reason or message).startswith("Cupcake: "):
            first = (reason or message).splitlines()[0]
            report.add(check, PROBLEM, f"{display}: Cupcake answered with a failure: {first}", "see the findings above")
            continue
        what = f"answered {decision}" if decision else "answered in time, no objection"
        report.add(
            check, OK, f"{display}: a sample {event} (`echo cupcake doctor`) through the hook: {what} ({timing})"
        )
    return found


def _codex_trust(report, check: str, path: str, env, warning, ok) -> None:
    """Codex skips untrusted hooks without a word: is there trust recorded for this file's hooks?"""
    from cupcake.agents.codex.install import codex_home
    from cupcake.agents.codex.trust import HOW

    try:
        with open(os.path.join(codex_home(env), "config.toml"), encoding="utf-8") as f:
            config = f.read()
    except (OSError, UnicodeDecodeError):
        config = ""
    if f"{path}:pre_tool_use:" in config:
        report.add(check, ok, "Codex: trust is recorded for Cupcake's hooks (a changed command needs it again)")
    else:
        report.add(check, warning, "Codex: no trust recorded for Cupcake's hooks, so Codex skips them", HOW)
