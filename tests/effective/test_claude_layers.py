"""Claude Code's precedence: a hook's deny first; permission rules of every scope, deny before ask before
allow; a hook's ask or allow; an allow rule (every part of a compound command); the permission mode."""

from __future__ import annotations

PROJECT, LOCAL, USER, MANAGED = (
    ".claude/settings.json",
    ".claude/settings.local.json",
    "~/.claude/settings.json",
    "/etc/claude-code/managed-settings.json",
)


def rules(**kinds):
    return {"permissions": dict(kinds)}


def test_a_deny_rule_beats_cupcakes_approve(machine):
    machine.write(PROJECT, rules(deny=["Bash(git push:*)"]))
    assert machine.decide("claude", machine.bash("git push origin"), "approve", "ok")[:2] == (
        "deny",
        ("permission rule", PROJECT),
    )


def test_an_ask_rule_beats_cupcakes_approve_and_an_allow_rule(machine):
    machine.write(PROJECT, rules(ask=["Bash(npm publish)"], allow=["Bash(npm publish)"]))
    assert machine.decide("claude", machine.bash("npm publish"), "approve")[:2] == ("ask", ("permission rule", PROJECT))


def test_cupcakes_deny_beats_every_allow_and_has_no_caveat(machine):
    machine.write(USER, rules(allow=["Bash"]))
    machine.write(MANAGED, {"permissions": {"defaultMode": "bypassPermissions"}})
    decision, winner, found = machine.decide("claude", machine.bash("rm -rf /"), "block", "no-rm")
    assert (decision, winner) == ("deny", ("Cupcake", "Cupcake's policies"))
    assert found["effective"]["caveats"] == []


def test_cupcakes_ask_floors_an_allow_rule_at_a_prompt(machine):
    machine.write(LOCAL, rules(allow=["Bash(kubectl apply:*)"]))
    assert machine.decide("claude", machine.bash("kubectl apply -f x"), "ask")[:2] == (
        "ask",
        ("Cupcake", "Cupcake's policies"),
    )


def test_a_deny_in_any_scope_beats_an_allow_in_another(machine):
    machine.write(USER, rules(deny=["Bash(curl:*)"]))
    machine.write(LOCAL, rules(allow=["Bash(curl:*)"]))
    assert machine.decide("claude", machine.bash("curl example.com"))[:2] == (
        "deny",
        ("permission rule", "~/.claude/settings.json"),
    )


def test_every_part_of_a_compound_command_must_be_allowed(machine):
    machine.write(PROJECT, rules(allow=["Bash(ls:*)", "Bash(git status)"]))
    assert machine.decide("claude", machine.bash("ls -la && git status"))[0] == "allow"
    decision, winner, found = machine.decide("claude", machine.bash("ls -la && rm -rf x"))
    assert (decision, winner) == ("ask", ("permission mode", "Claude Code's default"))
    assert any("every part must match one" in c for c in found["effective"]["caveats"])


def test_a_wildcard_never_spans_two_commands_but_a_deny_matches_any_part(machine):
    machine.write(PROJECT, rules(allow=["Bash(ls *)"], deny=["Bash(curl *)"]))
    assert machine.decide("claude", machine.bash("ls -la ; curl x | sh"))[0] == "deny"
    machine.write(PROJECT, rules(allow=["Bash(ls *)"]))
    assert machine.decide("claude", machine.bash("ls -la && touch x"))[0] == "ask"
    assert machine.decide("claude", machine.bash("ls"))[0] == "allow"  # a single trailing wildcard is optional


def test_legacy_prefix_rules_keep_word_boundaries(machine):
    machine.write(PROJECT, rules(deny=["Bash(npm:*)"]))
    assert machine.decide("claude", machine.bash("npm install"))[0] == "deny"
    assert machine.decide("claude", machine.bash("npmx install"))[0] == "ask"


def test_managed_only_permission_rules_set_the_others_aside(machine):
    machine.write(MANAGED, {"allowManagedPermissionRulesOnly": True, "permissions": {"ask": ["Bash(git push:*)"]}})
    machine.write(PROJECT, rules(allow=["Bash"]))
    decision, winner, found = machine.decide("claude", machine.bash("git status"))
    assert (decision, winner) == ("ask", ("permission mode", "Claude Code's default"))
    assert any(
        "ignored (managed settings allow only managed permission rules)" in layer["why"] for layer in found["layers"]
    )


def test_managed_only_hooks_mean_cupcake_is_not_run(machine):
    machine.write(MANAGED, {"allowManagedHooksOnly": True})
    decision, winner, found = machine.decide("claude", machine.bash("rm -rf /"), "block", "no-rm")
    assert decision == "ask" and winner[0] == "permission mode"
    assert "not run: allowManagedHooksOnly" in found["layers"][0]["why"]


def test_disable_all_hooks_by_settings_precedence(machine):
    machine.write(LOCAL, {"disableAllHooks": True})
    assert machine.decide("claude", machine.bash("rm -rf /"), "block")[0] == "ask"


def test_other_hooks_are_listed_as_unknown_and_cupcakes_own_are_not(machine):
    machine.write(
        PROJECT,
        {
            "hooks": {
                "PreToolUse": [
                    {"matcher": "", "hooks": [{"type": "command", "command": "cupcake run --event PreToolUse"}]},
                    {"matcher": "Bash|Write", "hooks": [{"type": "command", "command": "/opt/guard --strict"}]},
                    {"matcher": "Read", "hooks": [{"type": "command", "command": "/opt/read-guard"}]},
                ]
            }
        },
    )
    decision, _winner, found = machine.decide("claude", machine.bash("ls"))
    hooks = [layer for layer in found["layers"] if layer["kind"] == "hook"]
    assert [h["says"] for h in hooks] == ["unknown"] and "/opt/guard --strict" in hooks[0]["why"]
    assert any("could deny or ask instead" in c for c in found["effective"]["caveats"])


def test_file_rules_are_gitignore_style_paths(machine):
    machine.write(PROJECT, rules(deny=["Read(./.env)", "Edit(//etc/**)"], allow=["Edit(docs/**)"]))
    assert machine.decide("claude", machine.tool("Read", {"file_path": str(machine.root / ".env")}))[0] == "deny"
    assert (
        machine.decide("claude", machine.tool("Write", {"file_path": str(machine.root / "docs/a/b.md")}))[0] == "allow"
    )
    assert machine.decide("claude", machine.tool("Edit", {"file_path": "/etc/hosts"}))[0] == "deny"
    assert machine.decide("claude", machine.tool("Write", {"file_path": str(machine.root / "src/x.py")}))[0] == "ask"
    assert machine.decide("claude", machine.tool("Read", {"file_path": str(machine.root / "README.md")}))[0] == "allow"


def test_the_permission_mode_decides_last(machine):
    machine.write(LOCAL, {"permissions": {"defaultMode": "acceptEdits"}})
    assert machine.decide("claude", machine.tool("Write", {"file_path": str(machine.root / "a.py")}))[0] == "allow"
    assert machine.decide("claude", machine.bash("make"))[0] == "ask"
    machine.write(MANAGED, {"permissions": {"defaultMode": "plan"}})
    assert machine.decide("claude", machine.bash("make"))[:2] == (
        "deny",
        ("permission mode", str(machine.system / MANAGED[1:])),
    )


def test_what_cupcake_cannot_read_is_said_not_guessed(machine):
    machine.write(PROJECT, rules(deny=["Agent(explorer)"]))
    machine.write(LOCAL, "{ not json")
    decision, _winner, found = machine.decide("claude", machine.tool("Agent", {"subagent_type": "explorer"}))
    whys = [layer["why"] for layer in found["layers"]]
    assert any("does not know how Claude Code reads this rule" in w for w in whys)
    assert any(w.startswith("the file is not valid JSON") for w in whys)
    assert any("not known whether it applies" in c for c in found["effective"]["caveats"])


def test_mcp_and_webfetch_rules(machine):
    machine.write(PROJECT, rules(deny=["mcp__github"], allow=["WebFetch(domain:docs.rs)"]))
    assert machine.decide("claude", machine.tool("mcp__github__create_issue", {}))[0] == "deny"
    assert machine.decide("claude", machine.tool("mcp__other__x", {}))[0] == "ask"
    assert machine.decide("claude", machine.tool("WebFetch", {"url": "https://api.docs.rs/x"}))[0] == "allow"
    assert machine.decide("claude", machine.tool("WebFetch", {"url": "https://evil.example/docs.rs"}))[0] == "ask"
