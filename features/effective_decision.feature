Feature: The effective decision: every layer that decides a call, and which one wins
    Cupcake is one layer among several. The agent's own permission rules (Claude Code's
    permissions.allow/ask/deny in every settings scope, Gemini CLI's policy files, Codex's rules and
    approval policy), other hooks, managed (admin) settings and the permission mode all have a say.
    `cupcake explain` shows, for one tool call, what each of them says and which one wins by the
    agent's documented precedence, and `cupcake doctor` does it for a sample call. What cannot be
    known (another hook is a program; the agent's command line is not visible) is said, not guessed.

    Scenario: A deny rule in Claude Code's settings beats Cupcake's approve
        Given the project policy:
            """
            [[policy]]
            name = "tests are fine"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^pytest" }]
            action = { type = "approve", reason = "tests are fine" }
            """
        And the file ".claude/settings.json":
            """
            {"permissions": {"deny": ["Bash(pytest:*)"]}}
            """
        When the user runs "cupcake explain --command 'pytest -x'"
        Then the output says "ALLOW   Cupcake (cupcake.toml:1): approve by tests are fine"
        And the output says "DENY    permission rule (.claude/settings.json): permissions.deny 'Bash(pytest:*)'"
        And the output says "Effective: DENY, decided by permission rule in .claude/settings.json"

    Scenario: Cupcake's deny beats an allow rule, and nothing can loosen it
        Given the project policy:
            """
            imports = ["cupcake:git"]
            """
        And the file ".claude/settings.local.json":
            """
            {"permissions": {"allow": ["Bash(git push:*)"], "defaultMode": "bypassPermissions"}}
            """
        When the user runs "cupcake explain --command 'git push --force'"
        Then the output says "Effective: DENY, decided by Cupcake in cupcake:git"
        And the output says "ALLOW   permission rule (.claude/settings.local.json): permissions.allow 'Bash(git push:*)'"

    Scenario: Another hook is a program: what it answers is said to be unknown
        Given the project policy:
            """
            [[policy]]
            name = "nothing here"
            hook_event = "Stop"
            action = { type = "provide_feedback", message = "x" }
            """
        And the file ".claude/settings.json":
            """
            {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/other-guard"}]}]}}
            """
        When the user runs "cupcake explain --command 'make build'"
        Then the output says "UNKNOWN hook (.claude/settings.json): PreToolUse hook `/opt/other-guard` (matcher 'Bash'): a program"
        And the output says "Effective: ASK, decided by permission mode in Claude Code's default"
        And the output says "unless: PreToolUse hook `/opt/other-guard` (matcher 'Bash') in .claude/settings.json could deny or ask instead"

    Scenario: Gemini CLI's policy engine, by tier and priority
        Given the project policy:
            """
            [[policy]]
            name = "nothing here"
            hook_event = "Stop"
            action = { type = "provide_feedback", message = "x" }
            """
        And the file "~/.gemini/policies/mine.toml":
            """
            [[rule]]
            toolName = "run_shell_command"
            commandPrefix = "rm -rf"
            decision = "deny"
            priority = 500
            """
        When the user runs "cupcake explain --agent gemini --command 'rm -rf build'"
        Then the output says "Effective: DENY, decided by policy rule in ~/.gemini/policies/mine.toml"

    Scenario: An agent whose own settings Cupcake does not read says so
        Given the project policy:
            """
            imports = ["cupcake:git"]
            """
        When the user runs "cupcake explain --agent copilot --command 'git status'"
        Then the output says "Copilot CLI's own permission settings are not read by Cupcake: what they say is not known"
        And the output says "Effective: UNKNOWN"

    Scenario: explain --json gives every layer and the winner
        Given the project policy:
            """
            imports = ["cupcake:git"]
            """
        When the user runs "cupcake explain --json --command 'git push --force'"
        Then the JSON output's effective decision is "deny" by "Cupcake"

    Scenario: doctor shows the other layers and the other hooks
        Given the project policy:
            """
            imports = ["cupcake:git"]
            """
        And the user runs "cupcake sync"
        And the file ".claude/settings.local.json":
            """
            {"hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "/opt/other-guard"}]}]}}
            """
        When the user runs "cupcake doctor"
        Then the output says "layers claude: Claude Code runs 1 other hook(s) on tool calls beside Cupcake's"
        And the output says "`echo cupcake doctor` would be: ask, by permission mode in Claude Code's default"
