Feature: Testing policies: test, explain, replay
    `cupcake test` runs scenario files (an event or just a command, and the decision expected)
    against the project's policies and fails with a diff when one gets another answer.
    `cupcake explain` shows how one event is decided: the command as the shell reads it, every
    candidate policy, each condition and why it holds or not, the decision and who made it.
    `cupcake replay` runs recorded calls (the audit log, or a Claude Code transcript) through the
    current policies and reports what would change.

    Background:
        Given the project policy:
            """
            imports = ["cupcake:git"]
            """

    Scenario: Scenarios that get what they expect pass
        Given the project file "tests/cupcake/git.toml" holds:
            """
            [[scenario]]
            name = "force push"
            command = "git push -f"
            expect = "block"
            expect_policy = "git.force-push"

            [[scenario]]
            name = "plain push"
            command = "git push"
            expect = "allow"
            """
        When the user runs "cupcake test"
        Then the output says "2 passed, 0 failed"
        And the exit code is 0

    Scenario: A scenario that gets another decision fails with a diff
        Given the project file "tests/cupcake/wrong.toml" holds:
            """
            [[scenario]]
            name = "expects the wrong thing"
            command = "git status"
            expect = "block"
            """
        When the user runs "cupcake test"
        Then the output says "-decision: block"
        And the output says "+decision: allow"
        And the exit code is 1

    Scenario: Explain shows the parsed command, the conditions and the decision
        When the user runs "cupcake explain --command 'sudo git -C . push -f'"
        Then the output says "1. git -C . push -f [subcommand push] via sudo"
        And the output says "MATCH git.force-push (cupcake:git)"
        And the output says "Decision: block by git.force-push"
        And the output says "Timings:"

    Scenario: Replay reports what the current policies would have changed
        Given a Claude Code transcript "session.jsonl" with the Bash commands:
            | command                 |
            | git status              |
            | git push --force        |
            | git reset --hard HEAD~1 |
        When the user runs "cupcake replay session.jsonl"
        Then the output says "Replayed 3 recorded call(s) through the current policies: 2 would change."
        And the output says "git.force-push would have blocked 1 of 3 recorded call(s)"
