"""``cupcake doctor``: the other layers that decide tool calls in each agent Cupcake is hooked into (its
permission rules and mode, other hooks, managed settings), read through ``cupcake.effective``.

For a sample Bash call, what each layer says and which wins; a problem when the agent would not run
Cupcake's hooks at all (managed settings that allow only managed hooks, hooks turned off), a warning
when other hooks run beside Cupcake's (what they answer cannot be known), and the counts of permission
rules that can override what Cupcake says (a deny or ask rule beats Cupcake's approve)."""

from __future__ import annotations

from cupcake.agents.samples import SAMPLE_COMMAND, sample_event


def check_layers(report, root: str, env, agents) -> None:
    OK, PROBLEM, WARNING = "ok", "problem", "warning"  # doctor's statuses (it imports this module)
    from cupcake.effective import view

    for agent in agents:
        found = view(agent, sample_event(agent, root), root, env, "allow")
        check = f"layers {agent}"
        display = found["display"]
        layers = found["layers"]
        eff = found["effective"]
        ours = layers[0]
        if "not run" in ours["why"]:
            report.add(
                check,
                PROBLEM,
                f"{display} does not run Cupcake's hooks: {ours['why'].split('(not run: ', 1)[1].rstrip(')')}",
                "ask whoever manages that file, or remove the setting",
            )
        hooks = [layer for layer in layers if layer["kind"] == "hook" and layer["says"] == "unknown"]
        if hooks:
            report.add(
                check,
                WARNING,
                f"{display} runs {len(hooks)} other hook(s) on tool calls beside Cupcake's ("
                + "; ".join(f"{h['why'].split(':')[0]} in {h['where']}" for h in hooks[:3])
                + "): what they answer cannot be known, and a deny from any of them blocks",
                "`cupcake explain --agent " + agent + " --command '…'` shows every layer for a call",
            )
        from cupcake.agents import adapter

        if getattr(adapter(agent), "USER_CHANNEL", None) is None:
            report.add(
                check,
                OK,
                f"{display} has no user-only channel ({adapter(agent).USER_CHANNEL_SEEN}): a block there carries "
                'no `cupcake allow` code; [settings] approvals = "ask" makes such a block its own question to the person',
            )
        rules = [layer for layer in layers if layer["kind"] in ("permission rule", "policy rule", "command rule")]
        strict = [layer for layer in rules if layer["says"] in ("deny", "ask")]
        winner = eff["winner"]
        who = f"{winner['kind']} in {winner['where']}" if winner else "nothing readable here"
        report.add(
            check,
            OK,
            f"{display}: {len(rules)} of its own rules apply to a sample Bash call ({len(strict)} deny or ask, which "
            f"Cupcake's approve cannot loosen); `{SAMPLE_COMMAND}` would be: {eff['decision']}, by {who}",
        )
