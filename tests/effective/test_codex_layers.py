"""Codex's precedence: a hook's deny; its command rules, the most restrictive match winning (forbidden >
prompt > allow, every part of a compound command); approval_policy. Its hooks cannot ask or approve."""

from __future__ import annotations

RULES = "~/.codex/rules/default.rules"


def test_the_most_restrictive_rule_wins(machine):
    machine.write(
        RULES,
        'prefix_rule(pattern = ["git"], decision = "allow")\n'
        'prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "prompt")\n'
        'prefix_rule(pattern = ["git", "push", "--force"], decision = "forbidden", justification = "no")\n',
    )
    assert machine.decide("codex", machine.bash("git status"))[:2] == ("allow", ("command rule", RULES))
    assert machine.decide("codex", machine.bash("git fetch origin"))[0] == "ask"
    assert machine.decide("codex", machine.bash("git push --force"))[0] == "deny"


def test_a_compound_command_and_the_approval_policy(machine):
    machine.write(RULES, 'prefix_rule(pattern = ["ls"])\n')
    machine.write("~/.codex/config.toml", 'approval_policy = "untrusted"\n')
    assert machine.decide("codex", machine.bash("ls"))[0] == "allow"
    decision, winner, _found = machine.decide("codex", machine.bash("ls && make"))
    assert (decision, winner) == ("ask", ("approval policy", "~/.codex/config.toml"))


def test_the_default_approval_policy_and_a_projects_own(machine):
    assert machine.decide("codex", machine.bash("make"))[:2] == ("allow", ("approval policy", "Codex's default"))
    machine.write(".codex/config.toml", 'approval_policy = "untrusted"\n')
    assert machine.decide("codex", machine.bash("make"))[0] == "ask"


def test_cupcakes_deny_first_and_its_ask_is_not_sent(machine):
    machine.write(RULES, 'prefix_rule(pattern = ["make"])\n')
    assert machine.decide("codex", machine.bash("make"), "block")[1] == ("Cupcake", "Cupcake's policies")
    decision, _winner, found = machine.decide("codex", machine.bash("make"), "ask")
    assert decision == "allow" and "this agent's hooks cannot ask" in found["layers"][0]["why"]


def test_starlark_cupcake_cannot_evaluate_is_said(machine):
    machine.write(RULES, 'X = ["rm"]\nprefix_rule(pattern = X, decision = "forbidden")\n')
    _d, _w, found = machine.decide("codex", machine.bash("rm -rf x"))
    whys = [layer["why"] for layer in found["layers"] if layer["says"] == "unknown"]
    assert any("does not evaluate Starlark" in w for w in whys) and any("not a literal" in w for w in whys)


def test_agents_whose_own_settings_are_not_read_say_so(machine):
    for agent in ("copilot", "droid", "cursor"):
        decision, winner, found = machine.decide(agent, machine.bash("ls"))
        assert decision == "unknown" and winner is None
        assert "not read by Cupcake" in found["layers"][1]["why"]
        assert machine.decide(agent, machine.bash("ls"), "block")[0] == "deny"
