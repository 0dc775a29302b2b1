Feature: Testing policies: test, explain, replay
    `cupcake test` runs scenario files (an event or just a command, and the decision expected)
    against the project's policies and fails with a diff when one gets another answer.
    Each scenario goes through the hook's own pipeline, and nothing it does is recorded.
    `cupcake explain` shows how one event is decided, by that same pipeline: the command as the shell
    reads it, the policies that matched and why (every candidate with --all), every check that fired,
    the decision and exactly what the agent is shown.
    `cupcake replay` runs recorded calls (the audit log, or a Claude Code transcript) through the
    current policies and reports what would change, what it cannot judge, and what was never logged.

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

    Scenario: A scenario file that is not there is a usage error, not a failed test
        When the user runs "cupcake test tests/cupcake/gti.toml"
        Then the exit code is 2
        And the output says "cupcake test: no such file or directory: tests/cupcake/gti.toml"

    Scenario: The results as JUnit XML for CI
        Given the project file "tests/cupcake/git.toml" holds:
            """
            [[scenario]]
            name = "force push"
            command = "git push -f"
            expect = "block"
            """
        When the user runs "cupcake test --junit junit.xml"
        Then the exit code is 0
        And the project file "junit.xml" holds "<testcase classname="tests/cupcake/git.toml" name="force push""

    Scenario: Scenarios leave nothing in the audit trail or the session state
        Given the project policy:
            """
            imports = ["cupcake:git"]

            [settings]
            audit_logging = true
            audit_allows = true
            """
        And the project file "tests/cupcake/git.toml" holds:
            """
            [[scenario]]
            name = "force push"
            command = "git push -f"
            expect = "block"

            [[scenario]]
            name = "after a command"
            event = "PostToolUse"
            command = "ls"
            expect = "allow"
            """
        When the user runs "cupcake test"
        Then the output says "2 passed, 0 failed"
        And there is no audit log
        And no file ".cupcake/state" was created

    Scenario: Explain shows the parsed command, the conditions and the decision
        When the user runs "cupcake explain --command 'sudo git -C . push -f'"
        Then the output says "1. git -C . push -f [subcommand push] via sudo"
        And the output says "MATCH git.force-push (cupcake:git)"
        And the output says "Decision: block by git.force-push"
        And the output says "Timings:"

    Scenario: Explain decides as the hook does, self-protection included
        When the user runs "cupcake explain --command 'echo hi > cupcake.toml'"
        Then the output says "Decision: block by Cupcake self-protection"
        When the agent asks to run "echo hi > cupcake.toml"
        Then the model is shown:
            """
            Operation blocked: Cupcake self-protection: this command (redirection) would change cupcake.toml, a Cupcake policy file. Agents may not change it: a person must make this change, so ask the user to do it.
            """

    Scenario: The rule made for the command speaks first, and self-protection, which fires too, after it
        Given the project is a git repository that ignores ".cupcake/"
        When the agent asks to run "git reset --hard"
        Then the model is shown:
            """
            Operation blocked: `git reset --hard` (or `--merge`) throws away uncommitted changes. Commit or stash them first (`git stash`), or use `git reset --soft` / `git restore --staged`. [git.reset-hard]

            Additional policy feedback:
            • Cupcake self-protection: this command (git reset --hard) may rewrite or remove files anywhere in the git worktree of the project, including cupcake.toml, a Cupcake policy file, and Cupcake cannot show they stay as they are (git could not list the commits). Ask the user to run this git command themselves. Agents may not change it: a person must make this change, so ask the user to do it.
            """
        When the user runs "cupcake explain --command 'git reset --hard'"
        Then the output says "Decision: block by git.reset-hard, and by Cupcake self-protection"
        And the output says "Matched 1 of"
        And nothing shown contains "no    git.force-push"

    Scenario: Replay reports what the current policies would have changed
        Given a Claude Code transcript "session.jsonl" with the Bash commands:
            | command                 |
            | git status              |
            | git push --force        |
            | git reset --hard HEAD~1 |
        When the user runs "cupcake replay session.jsonl"
        Then the output says "Replayed 3 recorded call(s) through the current policies: 2 would change."
        And the output says "git.force-push would have blocked 1 of 3 recorded call(s)"

    Scenario: Replay says which recorded calls it cannot judge, and how many were never logged
        Given the project policy:
            """
            [settings]
            audit_logging = true

            [[policy]]
            name = "No console.log"
            matcher = "Write"
            conditions = [{ type = "file_content_regex", value = "console\\.log" }]
            action = { type = "provide_feedback", message = "Remove console.log" }
            """
        When the agent asks to write "app.js" with:
            """
            console.log("hi")
            """
        And Claude Code reports that the agent ran "ls"
        And the user runs "cupcake replay"
        Then the output says "Replayed 1 logged call(s) through the current policies: 0 would change; 1 cannot be judged from the record (below)."
        And the output says "Write: 'app.js': No console.log: file contents are not recorded"
        And the output says "Not logged: calls allowed with no policy matching (audit_allows = false): 1 more call(s) went ahead unlogged since"

