Feature: Enforcement the agent cannot switch off
    Cupcake's promise is that the team's rules hold whatever the agent does. Two layers keep the
    agent from changing what governs it: Claude Code's own protections (its permission rules, and its
    sandbox, which makes Cupcake's files read-only to every Bash command), and Cupcake's hook, which
    blocks the changes it recognises. The sandbox is the guarantee; the hook is best effort.

    Background:
        Given the project policy:
            """
            [[policy]]
            name = "no force push"
            conditions = [{ command_regex = "git push --force" }]
            action = { block_with_feedback = { feedback_message = "No force pushes." } }
            """

    Scenario: sync writes Claude Code's own protections for Cupcake's files
        When the user runs "cupcake sync"
        Then the exit code is 0
        And the output says "Protection: hook only"
        And the output says "cupcake sync --sandbox"

    Scenario: The doctor says which layer protects Cupcake's files, and how to raise it
        When the user runs "cupcake sync"
        And the user runs "cupcake doctor"
        Then the doctor reports as ok "protection level: hook only"
        And the output says "To raise it to sandboxed: "

    Scenario: Uninstalling removes the protections too, and nothing else
        Given the file ".claude/settings.json":
            """
            {
              "permissions": {"deny": ["Bash(curl *)"]},
              "sandbox": {"enabled": false}
            }
            """
        When the user runs "cupcake sync"
        And the user runs "cupcake sync --uninstall"
        Then ".claude/settings.json" is the original
        And the output says "Removed the protections sync had added"
