Feature: Context for the model: inject_context
    A policy can give the model extra context instead of deciding anything: a fixed text, a file of
    the project (read when the event comes, so edits show at once), or what a command prints. The
    context reaches the model as additionalContext on UserPromptSubmit, SessionStart, PreToolUse,
    PostToolUse and PostToolUseFailure. On PreToolUse it comes without a permission decision, so
    Claude Code's own permission flow is untouched. Several injections join in policy order, with
    a blank line between them. Context comes before soft feedback on the same answer. Context
    never blocks: a file that cannot be read or a command that fails gives no context, and the
    user is told why.

    Scenario: A text reaches the model with the prompt
        Given the project policy:
            """
            [[policy]]
            name = "Conventions"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", text = "This repo uses pnpm, never npm." }
            """
        When the user submits the prompt "add a dependency"
        Then Cupcake answers {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"This repo uses pnpm, never npm."}}

    Scenario: A project file is read when the session starts
        Given the project policy:
            """
            [[policy]]
            name = "House rules"
            hook_event = "SessionStart"
            action = { type = "inject_context", file = "docs/rules.md" }
            """
        And the project file "docs/rules.md" holds:
            """
            # House rules
            - Money is in cents, as integers.
            """
        When a session starts
        Then the model is given the context:
            """
            # House rules
            - Money is in cents, as integers.
            """

    Scenario: A file is read again on every event, so an edit shows at once
        Given the project policy:
            """
            [[policy]]
            name = "Sprint goal"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", file = "GOAL.txt" }
            """
        And the project file "GOAL.txt" holds:
            """
            Ship the checkout page.
            """
        When the user submits the prompt "what next?"
        Then the model is given the context:
            """
            Ship the checkout page.
            """
        Given the project file "GOAL.txt" holds:
            """
            Fix the flaky payment test.
            """
        When the user submits the prompt "what next?"
        Then the model is given the context:
            """
            Fix the flaky payment test.
            """

    Scenario: On PreToolUse the context comes without a permission decision
        Given the project policy:
            """
            [[policy]]
            name = "Migrations"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "alembic" }]
            action = { type = "inject_context", text = "Migrations must be reversible: write downgrade() too." }
            """
        When the agent asks to run "alembic revision -m 'add cart'"
        Then Cupcake answers {"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"Migrations must be reversible: write downgrade() too."}}

    Scenario: What a command prints, after a tool ran
        Given the project policy:
            """
            [[policy]]
            name = "Show the coverage"
            hook_event = "PostToolUse"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "pytest" }]
            action = { type = "inject_context", command = "coverage report --format=total" }
            """
        And the program "coverage" prints:
            """
            Coverage: 87%
            """
        When Claude Code reports that the agent ran "pytest -q"
        Then Cupcake answers {"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Coverage: 87%"}}

    Scenario: Several contexts join in policy order, and come before soft feedback
        Given the project policy:
            """
            [[policy]]
            name = "Branch"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", command = "current-branch" }

            [[policy]]
            name = "Be brief"
            hook_event = "UserPromptSubmit"
            action = { type = "provide_feedback", message = "Keep answers short" }

            [[policy]]
            name = "Rules"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", text = "Never push to main." }
            """
        And the program "current-branch" prints:
            """
            On branch feat/cart
            """
        When the user submits the prompt "commit this"
        Then the model is given the context:
            """
            On branch feat/cart

            Never push to main.

            Policy feedback found:
            • Keep answers short

            Please address these issues before proceeding.
            """

    Scenario: Context never decides: a block still denies, and the context rides along
        Given the project policy:
            """
            [[policy]]
            name = "Rules"
            matcher = "Bash"
            action = { type = "inject_context", text = "Use make targets." }

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        When the agent asks to run "sudo make install"
        Then Cupcake answers {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Operation blocked: No sudo","additionalContext":"Use make targets."}}

    Scenario: A command that fails gives no context, and the user is told; nothing is blocked
        Given the project policy:
            """
            [[policy]]
            name = "Open tickets"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", command = "tickets --mine" }

            [[policy]]
            name = "Rules"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", text = "Link every commit to a ticket." }
            """
        And the program "tickets" fails with:
            """
            tickets: the tracker is down
            """
        When the user submits the prompt "what should I do?"
        Then the model is given the context:
            """
            Link every commit to a ticket.
            """
        And the user is told "no context from policy \"Open tickets\": Command `tickets --mine` failed (exit 1):\ntickets: the tracker is down"

    Scenario: A file that is missing gives no context, and the user is told
        Given the project policy:
            """
            [[policy]]
            name = "House rules"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", file = "docs/rules.md" }
            """
        When the user submits the prompt "hello"
        Then the model is given no context
        And the user is told "no context from policy \"House rules\": cannot read docs/rules.md: it does not exist"

    Scenario: A context file never leads outside the project, even through a symlink
        Given the project policy:
            """
            [[policy]]
            name = "House rules"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", file = "docs/rules.md" }
            """
        And "docs/rules.md" is a symlink to a file outside the project holding "SECRET-TOKEN"
        When the user submits the prompt "hello"
        Then the model is given no context
        And the user is told "cannot read docs/rules.md: it leads outside the project root"
        And nothing shown contains "SECRET-TOKEN"

    Scenario: A very long context is cut to the client's limit, keeping its first line and its tail
        Given the project policy:
            """
            [[policy]]
            name = "API reference"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", file = "docs/api.md" }

            [[policy]]
            name = "Rules"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", text = "Short rule." }
            """
        And the project file "docs/api.md" holds a 30000-character text
        When the user submits the prompt "hello"
        Then the model is shown at most 10000 characters
        And the model is shown a note that "characters cut by Cupcake"
        And the model is shown the last line of the message, then "Short rule."

    Scenario Outline: A mistake in an inject_context policy is an error that names it
        Given the project policy:
            """
            [[policy]]
            name = "Rules"
            hook_event = "<event>"
            action = { type = "inject_context", <source> }
            """
        When the user submits the prompt "hello"
        Then the answer is only a note to the user saying "cupcake.toml:4: policy \"Rules\": <message>"

        Examples:
            | event            | source                                  | message |
            | UserPromptSubmit | file = "../secrets.txt"                 | action inject_context: file: '../secrets.txt' leads outside the project root |
            | UserPromptSubmit | file = "/etc/passwd"                    | action inject_context: file: must be relative to the project root, got the absolute path '/etc/passwd' |
            | UserPromptSubmit | text = "a", file = "b.md"               | action inject_context: give exactly one of `text`, `file` or `command` (it gives `text` and `file`) |
            | UserPromptSubmit | text = "a", timeout = 5                 | action inject_context: `timeout` applies only to a `command` |
            | UserPromptSubmit | command = "lint {{nope}}"               | action inject_context: command: unknown placeholder {{nope}} |
            | Stop             | text = "a"                              | "inject_context" cannot be honoured on Stop: Claude Code passes no context to the model there |
            | UserPromptSubmit | txt = "a"                               | action inject_context: unknown key `txt` (did you mean "text"?) |
