"""Gemini CLI's precedence (seen in 0.61.0): a BeforeTool hook's deny first; then the policy engine's
highest-priority matching rule, by tier (Admin > User > Default) and then priority; a hook's allow
cannot loosen it. Workspace policies are documented as not loaded."""

from __future__ import annotations

USER, ADMIN, WORKSPACE = (
    "~/.gemini/policies/mine.toml",
    "/etc/gemini-cli/policies/org.toml",
    ".gemini/policies/team.toml",
)


def rule(decision, priority=100, **match):
    lines = ["[[rule]]"] + [f"{k} = {v!r}".replace("'", '"') for k, v in match.items()]
    return "\n".join(lines + [f'decision = "{decision}"', f"priority = {priority}", ""])


def test_the_built_in_default_asks_for_the_shell_and_allows_reads(machine):
    assert machine.decide("gemini", machine.bash("ls"))[:2] == (
        "ask",
        ("policy rule", "Gemini CLI's built-in defaults"),
    )
    assert machine.decide("gemini", machine.tool("Read", {"file_path": "x"}))[0] == "allow"


def test_a_user_rule_beats_the_default_and_the_higher_priority_wins(machine):
    machine.write(USER, rule("allow", 10, toolName="run_shell_command") + rule("deny", 500, commandPrefix="rm -rf"))
    assert machine.decide("gemini", machine.bash("ls -la"))[:2] == ("allow", ("policy rule", USER))
    assert machine.decide("gemini", machine.bash("rm -rf build"))[0] == "deny"
    assert machine.decide("gemini", machine.bash("rm -rfv build"))[0] == "allow"  # a prefix ends at a word


def test_the_admin_tier_beats_any_user_priority(machine):
    machine.write(USER, rule("allow", 999, toolName="run_shell_command"))
    machine.write(ADMIN, rule("ask_user", 0, commandRegex="git (push|commit)"))
    assert machine.decide("gemini", machine.bash("git push"))[:2] == (
        "ask",
        ("policy rule", str(machine.system / ADMIN[1:])),
    )
    assert machine.decide("gemini", machine.bash("git status"))[0] == "allow"


def test_workspace_policies_are_listed_and_ignored(machine):
    machine.write(WORKSPACE, rule("deny", 999, toolName="run_shell_command"))
    decision, _winner, found = machine.decide("gemini", machine.bash("ls"))
    assert decision == "ask"
    assert any("does not load workspace policies" in layer["why"] for layer in found["layers"])


def test_cupcakes_deny_comes_first_and_its_approve_cannot_loosen_a_policy_deny(machine):
    machine.write(USER, rule("deny", 100, toolName="run_shell_command"))
    assert machine.decide("gemini", machine.bash("ls"), "block")[:2] == ("deny", ("Cupcake", "Cupcake's policies"))
    assert machine.decide("gemini", machine.bash("ls"), "approve")[:2] == ("deny", ("policy rule", USER))
    machine.write(USER, rule("ask_user", 100, toolName="run_shell_command"))
    assert machine.decide("gemini", machine.bash("ls"), "approve")[0] == "ask"


def test_tool_names_wildcards_args_and_mcp(machine):
    machine.write(
        USER,
        rule("deny", 10, toolName=["write_file", "replace"])
        + rule("deny", 10, mcpName="github", toolName="create_issue")
        + '[[rule]]\ntoolName = "web_fetch"\nargsPattern = \'"url":"https://docs\'\ndecision = "allow"\npriority = 20\n',
    )
    assert machine.decide("gemini", machine.tool("Write", {"file_path": "a"}))[0] == "deny"
    assert machine.decide("gemini", machine.tool("Edit", {"file_path": "a"}))[0] == "deny"
    event = machine.tool("mcp_github_create_issue", {})
    assert machine.decide("gemini", event)[0] == "deny"
    assert machine.decide("gemini", machine.tool("WebFetch", {"url": "https://docs.x"}))[0] == "allow"


def test_other_hooks_and_what_cannot_be_read(machine):
    machine.write(
        ".gemini/settings.json",
        {
            "hooks": {
                "BeforeTool": [
                    {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "/opt/g"}]},
                    {
                        "matcher": "*",
                        "hooks": [{"type": "command", "command": "cupcake run --agent gemini --event BeforeTool"}],
                    },
                ]
            }
        },
    )
    machine.write(USER, "[[rule]\nbroken")
    _d, _w, found = machine.decide("gemini", machine.bash("ls"))
    assert [layer["why"].split(":")[0] for layer in found["layers"] if layer["kind"] == "hook"] == [
        "BeforeTool hook `/opt/g` (matcher 'run_shell_command')"
    ]
    assert any(layer["says"] == "unknown" and "cannot be read" in layer["why"] for layer in found["layers"])
