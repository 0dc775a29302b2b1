Feature: Cupcake inside the real Claude Code client
    These scenarios run the pinned Claude Code CLI (2.1.328) headless against a scripted model,
    with Cupcake hooked into the project by `cupcake sync` (so they also prove that the client honours
    what sync writes), and check two things: what happened on disk,
    and what the model was shown afterwards (the tool_result of the scripted call, word for word).

    Each scenario gets a throwaway project ($PROJECT), HOME, and a directory beside the project
    ($OUTSIDE) that the agent's working directories do not include. In headless mode the client
    refuses a tool that needs permission and gets none; "the user lets the agent use Bash without
    asking" allows the tool, so that only Cupcake stands between the agent and the action.

    Rule: A command that deletes outside the project is blocked

        Background:
            Given the project policy:
                """
                policy_schema_version = "1.0"

                [[policy]]
                name = "No rm outside"
                hook_event = "PreToolUse"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "rm\\s+-rf\\s+/" }]
                action = { type = "block_with_feedback", feedback_message = "Do not delete outside the project" }
                """
            And the user lets the agent use Bash without asking
            And the directory "$OUTSIDE/scratch" holds a file

        @real_client
        Scenario: rm -rf outside the project is blocked and the model is told why
            When the agent asks to run "rm -rf $OUTSIDE/scratch"
            Then the directory "$OUTSIDE/scratch" still exists
            And the model is shown:
                """
                PreToolUse:Bash hook error: Operation blocked: Do not delete outside the project
                """

        @real_client
        Scenario: The suite can fail: a hook that exits 1 instead of answering lets the deletion through
            Given Cupcake is called through a wrapper that exits 1 instead of answering
            When the agent asks to run "rm -rf $OUTSIDE/scratch"
            Then checking that the directory "$OUTSIDE/scratch" still exists fails
            And checking that the model is shown this fails:
                """
                PreToolUse:Bash hook error: Operation blocked: Do not delete outside the project
                """

    @real_client
    Scenario: A built-in rule pack blocks deleting the repository, and the model is told why and what to do
        Given the project policy:
            """
            imports = ["cupcake:destructive"]
            """
        And the user lets the agent use Bash without asking
        And the directory "$PROJECT/.git" holds a file
        When the agent asks to run "rm -rf .git"
        Then the directory "$PROJECT/.git" still exists
        And the model is shown:
            """
            PreToolUse:Bash hook error: Operation blocked: This deletes the git repository itself (`.git`): every commit, branch and stash is lost. Ask the user; to start over, clone again into a new directory. [destructive.rm-repository]
            """

    @real_client
    Scenario: A hard block and two soft messages on one Write arrive together, in policy-file order
        Given the project policy:
            """
            policy_schema_version = "1.0"

            [[policy]]
            name = "No console.log"
            hook_event = "PreToolUse"
            matcher = "Write"
            conditions = [{ type = "file_content_regex", value = "console\\.log" }]
            action = { type = "provide_feedback", message = "Use the project logger instead of console.log" }

            [[policy]]
            name = "No live keys"
            hook_event = "PreToolUse"
            matcher = "Write"
            conditions = [{ type = "file_content_regex", value = "sk_live_[0-9a-z]+" }]
            action = { type = "block_with_feedback", feedback_message = "Never write live API keys into files" }

            [[policy]]
            name = "TODOs need an issue"
            hook_event = "PreToolUse"
            matcher = "Write"
            conditions = [{ type = "file_content_regex", value = "TODO(?!\\(#\\d+\\))" }]
            action = { type = "provide_feedback", message = "Link every TODO to an issue, like TODO(#12)" }
            """
        And the user lets the agent use Write without asking
        When the agent asks to write "$PROJECT/pay.js" with:
            """
            const key = "sk_live_4242abc"; // TODO rotate
            console.log(key);
            """
        Then "$PROJECT/pay.js" does not exist
        And the model is shown:
            """
            PreToolUse:Write hook error: Operation blocked: Never write live API keys into files

            Additional policy feedback:
            • Use the project logger instead of console.log
            • Link every TODO to an issue, like TODO(#12)
            """

    @real_client
    Scenario: Soft feedback alone stops the call and lists every message
        Given the project policy:
            """
            policy_schema_version = "1.0"

            [[policy]]
            name = "Release notes"
            hook_event = "PreToolUse"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "release" }]
            action = { type = "provide_feedback", message = "Add a line to CHANGELOG.md for every release" }

            [[policy]]
            name = "Tag format"
            hook_event = "PreToolUse"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "v\\d+\\.\\d+(?!\\.\\d)" }]
            action = { type = "provide_feedback", message = "Release tags have three numbers: vMAJOR.MINOR.PATCH" }
            """
        And the user lets the agent use Bash without asking
        When the agent asks to run "touch $PROJECT/release-v1.2"
        Then "$PROJECT/release-v1.2" does not exist
        And the model is shown:
            """
            PreToolUse:Bash hook error: Policy feedback found:
            • Add a line to CHANGELOG.md for every release
            • Release tags have three numbers: vMAJOR.MINOR.PATCH

            Please address these issues before proceeding.
            """

    @real_client
    Scenario: Soft feedback on the prompt reaches the model as context, and the session goes on
        Given the project policy:
            """
            policy_schema_version = "1.0"

            [[policy]]
            name = "Style guide"
            hook_event = "UserPromptSubmit"
            action = { type = "provide_feedback", message = "Follow the style guide in STYLE.md" }

            [[policy]]
            name = "Tests first"
            hook_event = "UserPromptSubmit"
            action = { type = "provide_feedback", message = "Run the tests before you finish" }
            """
        When the agent asks to run "echo hello"
        Then the model's context included:
            """
            UserPromptSubmit hook additional context: Policy feedback found:
            • Follow the style guide in STYLE.md
            • Run the tests before you finish

            Please address these issues before proceeding.
            """
        And the model is shown:
            """
            hello
            """

    Rule: approve lets a command run that headless mode would refuse

        Background:
            Given the project policy:
                """
                policy_schema_version = "1.0"

                [[policy]]
                name = "Markers may go anywhere"
                hook_event = "PreToolUse"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^touch \\S+/ready\\.marker$" }]
                action = { type = "approve", reason = "Ready markers are harmless" }
                """

        @real_client
        Scenario: A matching approve policy lets the command run
            When the agent asks to run "touch $OUTSIDE/ready.marker"
            Then the file "$OUTSIDE/ready.marker" exists
            And no tool call was refused for lack of permission
            And the model is shown:
                """
                (Bash completed with no output)
                """

        @real_client
        Scenario: With no policy matching, the same kind of command is refused
            When the agent asks to run "touch $OUTSIDE/other.marker"
            Then "$OUTSIDE/other.marker" does not exist
            And the Bash call was refused for lack of permission

    Rule: A broken cupcake.toml blocks with fail_mode "closed" and stands aside with "open"

        @real_client
        Scenario: fail_mode "closed" blocks the prompt before any tool runs, and names the broken policy
            UserPromptSubmit is the first event that can block, so a broken file stops the session there:
            the model never sees the prompt, and the client's result carries the reason.
            Given the project policy:
                """
                policy_schema_version = "1.0"

                [settings]
                fail_mode = "closed"

                [[policy]]
                name = "Teleport home"
                hook_event = "PreToolUse"
                matcher = "Bash"
                action = { type = "teleport", destination = "home" }
                """
            And the user lets the agent use Bash without asking
            When the agent asks to run "touch $PROJECT/made-by-agent.txt"
            Then "$PROJECT/made-by-agent.txt" does not exist
            And the prompt never reached the model
            And the client reported the prompt blocked by a hook, mentioning "cupcake.toml"
            And the client reported the prompt blocked by a hook, mentioning "Teleport home"

        @real_client
        Scenario: fail_mode "open" lets the tool run
            Given the project policy:
                """
                policy_schema_version = "1.0"

                [settings]
                fail_mode = "open"

                [[policy]]
                name = "Teleport home"
                hook_event = "PreToolUse"
                matcher = "Bash"
                action = { type = "teleport", destination = "home" }
                """
            And the user lets the agent use Bash without asking
            When the agent asks to run "touch $PROJECT/made-by-agent.txt"
            Then the file "$PROJECT/made-by-agent.txt" exists
            And the model is shown:
                """
                (Bash completed with no output)
                """

    @real_client
    Scenario: With fail_mode "closed", a Cupcake that crashes still blocks, through the `|| exit 2` sync wrote
        Every hook fails here (the wrapper exits 1, as a crash would). Claude Code treats a failing
        hook as no objection; `|| exit 2` turns the failure into a block, from the prompt on.
        Given the project policy:
            """
            policy_schema_version = "1.0"

            [settings]
            fail_mode = "closed"
            """
        And the user lets the agent use Bash without asking
        And the directory "$OUTSIDE/scratch" holds a file
        And Cupcake is called through a wrapper that exits 1 instead of answering
        When the agent asks to run "rm -rf $OUTSIDE/scratch"
        Then the directory "$OUTSIDE/scratch" still exists
        And the prompt never reached the model

    @real_client
    Scenario: A check that fails after a Write shows the model the captured stderr
        Given the project policy:
            """
            policy_schema_version = "1.0"

            [[policy]]
            name = "Run tests after code changes"
            hook_event = "PostToolUse"
            matcher = "Write|Edit"
            conditions = [{ type = "filepath_regex", value = "\\.py$" }]
            action = {
              type = "run_command",
              command = "python3 -c \"import sys; sys.stderr.write('FAILED test_cart.py::test_total - assert 3 == 4')\nsys.exit(1)\"",
              on_failure_feedback = "Tests failed after your edit:\n{{stderr}}"
            }
            """
        And the user lets the agent use Write without asking
        When the agent asks to write "$PROJECT/cart.py" with:
            """
            def total(items): return len(items)
            """
        Then the file "$PROJECT/cart.py" exists
        And the model's context included:
            """
            Operation blocked: Tests failed after your edit:
            FAILED test_cart.py::test_total - assert 3 == 4
            """

    @real_client
    Scenario: Injected context and the evaluator's findings reach the model with the prompt
        Given the project policy:
            """
            policy_schema_version = "1.0"

            [settings.eval_feedback]
            enabled = true

            [[policy]]
            name = "Conventions"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", text = "This repo uses pnpm, never npm." }
            """
        And the file "$PROJECT/logs/evals/eval-03-approval-queue.json" holds:
            """
            {"framework_compliance": "warn", "repeated_mistakes": "isApproved filter omitted", "eval_notes": "ApprovalList has an onClick handler."}
            """
        When the agent asks to run "echo hello"
        Then the model's context included:
            """
            UserPromptSubmit hook additional context: This repo uses pnpm, never npm.

            ## Quality Gate Feedback (from automated eval of prior features)
            ⚠ FRAMEWORK COMPLIANCE: warn. Update roadmap to ✅ after completion. Add Agents.md round entry. Match spec frontmatter exactly.
            🔴 REPEATED MISTAKE: isApproved filter omitted — This pattern has occurred in prior features. Check your implementation specifically for this issue before committing.
            📋 EVAL NOTES: ApprovalList has an onClick handler.
            ## KNOWN REPEATED MISTAKES (from prior features in this campaign — do NOT repeat these):
            - isApproved filter omitted
            """
        And the model's context included:
            """
            SessionStart hook additional context: ## Quality Gate Feedback (from automated eval of prior features)
            """
        And the model is shown:
            """
            hello
            """

    Rule: Context on PreToolUse carries no permission decision: the client's own permission flow still applies

        Background:
            Given the project policy:
                """
                policy_schema_version = "1.0"

                [[policy]]
                name = "Markers"
                hook_event = "PreToolUse"
                matcher = "Bash"
                action = { type = "inject_context", text = "Ready markers are harmless." }
                """

        @real_client
        Scenario: With Bash allowed by the user, the tool runs and the model gets the context
            Given the user lets the agent use Bash without asking
            When the agent asks to run "touch $OUTSIDE/ready.marker"
            Then the file "$OUTSIDE/ready.marker" exists
            And the model's context included:
                """
                PreToolUse:Bash hook additional context: Ready markers are harmless.
                """

        @real_client
        Scenario: Without it, the call is refused as it would be without Cupcake
            When the agent asks to run "touch $OUTSIDE/other.marker"
            Then "$OUTSIDE/other.marker" does not exist
            And the Bash call was refused for lack of permission

    Rule: cupcake init can use the real client as its agent

        @real_client
        Scenario: cupcake init: the real client writes the policies, fixes its mistake in the same session, and they are saved
            `cupcake init --yes` runs the real client headless as its agent, then `cupcake sync`. The scripted
            model writes the temporary policy file with its Write tool; Cupcake's loader rejects the first version, and the
            error goes back to the same session (--resume), where the model writes it again. The project's
            hooks block every tool and record that they ran: init turns them off for its own session.
            Given the project's CLAUDE.md:
                """
                Never run rm -rf outside the project.
                """
            And every hook of the project blocks and records that it ran
            And the model writes "$PROJECT/cupcake.toml.tmp" with:
                """
                policy_schema_version = "1.0"

                [[policy]]
                name = "No rm outside"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "rm\\s+-rf\\s+(/|\\.\\./" }]
                action = { type = "block_with_feedback", feedback_message = "Do not delete outside the project" }
                """
            And after being told what is wrong, the model writes "$PROJECT/cupcake.toml.tmp" with:
                """
                policy_schema_version = "1.0"

                [[policy]]
                name = "No rm outside"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "rm\\s+-rf\\s+(/|\\.\\./)" }]
                action = { type = "block_with_feedback", feedback_message = "Do not delete outside the project" }
                """
            When the user runs "cupcake init --yes" with the real client as the agent
            Then init finished after 2 attempts
            And the model's first prompt held the rule "Never run rm -rf outside the project."
            And the correction went to the same session, with the error "invalid regex in command_regex: missing ), unterminated subpattern"
            And the policy file "$PROJECT/cupcake.toml" loads with 1 policy
            And no file "$PROJECT/cupcake.toml.tmp" is left
            And no hook ran
            And the project's .claude/settings.json now calls Cupcake on every event, beside the hooks it had

    Rule: Session state: what the model did earlier in the session decides

        @real_client
        Scenario: Read before edit (seed 003): the Edit is blocked until the model has read the document
            Cupcake records every tool use of the session by itself; the policy only asks about it.
            Claude Code's own rule (read a file before editing it) is met by the first Read.
            Given the project policy:
                """
                policy_schema_version = "1.0"

                [[policy]]
                name = "Ensure context is read before editing"
                hook_event = "PreToolUse"
                matcher = "Edit|Write"
                conditions = [
                  { type = "filepath_regex", value = "file\\.xyz" },
                  { type = "state_missing", tool = "Read", path = "filexyz.md" }
                ]
                action = {
                  type = "block_with_feedback",
                  feedback_message = "Policy Violation: You must read filexyz.md before editing file.xyz."
                }
                """
            And the file "$PROJECT/file.xyz" holds:
                """
                version = 1
                """
            And the file "$PROJECT/filexyz.md" holds:
                """
                Bump the version one step at a time.
                """
            And the user lets the agent use Edit without asking
            When the model makes these tool calls, one after another:
                | tool | input                                                                                      |
                | Read | {"file_path": "$PROJECT/file.xyz"}                                                         |
                | Edit | {"file_path": "$PROJECT/file.xyz", "old_string": "version = 1", "new_string": "version = 2"} |
                | Read | {"file_path": "$PROJECT/filexyz.md"}                                                       |
                | Edit | {"file_path": "$PROJECT/file.xyz", "old_string": "version = 1", "new_string": "version = 2"} |
            Then the model is shown, for call 2:
                """
                PreToolUse:Edit hook error: Operation blocked: Policy Violation: You must read filexyz.md before editing file.xyz.
                """
            And the file "$PROJECT/file.xyz" holds:
                """
                version = 2
                """
