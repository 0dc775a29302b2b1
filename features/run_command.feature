Feature: Checks that gate the agent: run_command
    A policy can run a command (a test suite, a linter, a notify script) and turn its failure into
    feedback for the agent. By default a failure blocks (on_failure = "block"): a non-zero exit, a
    timeout or an executable that cannot start. A check that passes is satisfied and the scan goes
    on, so a passing test suite never hides a later block. on_failure = "feedback" makes a failure
    one more soft message; "ignore" runs the command as a side effect, only when the operation goes
    ahead. Commands never go through a shell unless the policy says shell = true, and the agent's
    values are passed as whole arguments: a command string cannot be injected.

    Scenario: "Tests must pass before committing": blocked until the tests pass
        Given the project policy:
            """
            [[policy]]
            name = "Tests must pass before committing"
            hook_event = "PreToolUse"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git commit" }]
            action = { type = "run_command", command = "npm test" }
            """
        And the test suite fails with:
            """
            FAIL src/cart.test.js
              ✕ adds two items (4 ms)
            Tests: 1 failed, 12 passed
            """
        When the agent asks to run "git commit -m 'Add cart'"
        Then the tool call is denied with:
            """
            Operation blocked: Command `npm test` failed (exit 1):
            FAIL src/cart.test.js
              ✕ adds two items (4 ms)
            Tests: 1 failed, 12 passed
            """
        Given the test suite passes
        When the agent asks to run "git commit -m 'Add cart'" again
        Then Cupcake prints nothing

    Scenario: "Run tests after code changes": the failing test names go back to the agent
        Given the project policy:
            """
            [[policy]]
            name = "Run tests after code changes"
            hook_event = "PostToolUse"
            matcher = "Write|Edit"
            conditions = [ { type = "filepath_regex", value = "\\.rs$" } ] # Only on Rust files
            action = {
              type = "run_command",
              command = "cargo test",
              on_failure_feedback = "Tests failed after your edit. Please fix them. Failing tests:\n{{stderr}}"
            }
            """
        And the test suite fails with:
            """
            test cart::tests::adds_two_items ... FAILED
            test cart::tests::empty_cart_is_free ... FAILED
            """
        When Claude Code reports that the agent wrote "src/cart.rs"
        Then the model is shown:
            """
            Operation blocked: Tests failed after your edit. Please fix them. Failing tests:
            test cart::tests::adds_two_items ... FAILED
            test cart::tests::empty_cart_is_free ... FAILED
            """

    Scenario: "Notify me when a new library is installed": the script gets the exact command
        Given the project policy:
            """
            [[policy]]
            name = "Notify me when a new library is installed"
            hook_event = "PostToolUse"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "npm install" }]
            action = { type = "run_command", command = "./notify_script.sh '{{command}}'" }
            """
        And the project script "notify_script.sh" records its arguments
        When Claude Code reports that the agent ran "npm install left-pad; rm -rf ~"
        Then Cupcake prints nothing
        And "notify_script.sh" received exactly the arguments:
            """
            ["npm install left-pad; rm -rf ~"]
            """

    Scenario Outline: The agent's command cannot inject into the check, with or without a shell
        Given the project policy:
            """
            [[policy]]
            name = "Log installs"
            hook_event = "PostToolUse"
            matcher = "Bash"
            action = { type = "run_command", command = "./notify_script.sh {{command}} done", shell = <shell> }
            """
        And the project script "notify_script.sh" records its arguments
        When Claude Code reports that the agent ran "<command>"
        Then "notify_script.sh" received exactly the arguments:
            """
            [<received>, "done"]
            """
        And no file "pwned" was created

        Examples:
            | shell | command                          | received                           |
            | false | x; touch pwned                   | "x; touch pwned"                   |
            | false | $(touch pwned) `touch pwned`     | "$(touch pwned) `touch pwned`"     |
            | true  | x; touch pwned                   | "x; touch pwned"                   |
            | true  | $(touch pwned) && touch pwned    | "$(touch pwned) && touch pwned"    |

    Scenario: A check that hangs is stopped at its timeout, with everything it started
        Given the project policy:
            """
            [[policy]]
            name = "Slow check"
            matcher = "Bash"
            action = { type = "run_command", command = "sh -c 'sleep 987 & sleep 986'", timeout = 1 }
            """
        When the agent asks to run "make"
        Then the tool call is denied with:
            """
            Operation blocked: Command `sh -c 'sleep 987 & sleep 986'` timed out after 1s
            """
        And the answer came within 10 seconds
        And no process "sleep 987" is left running

    Scenario: A check that prints megabytes is cut to its tail
        Given the project policy:
            """
            [[policy]]
            name = "Noisy check"
            matcher = "Bash"
            action = { type = "run_command", command = "python3 -c 'import sys\nfor i in range(200000): print(\"line\", i)\nprint(\"SUMMARY: 3 failed\", file=sys.stderr)\nsys.exit(1)'" }
            """
        When the agent asks to run "make"
        Then the tool call is denied
        And the model is shown at most 10000 characters
        And the model is shown a note that "characters cut by Cupcake"
        And the model is shown a note that "SUMMARY: 3 failed"

    Scenario: A check whose executable does not exist blocks and says so
        Given the project policy:
            """
            [[policy]]
            name = "Lint"
            matcher = "Bash"
            action = { type = "run_command", command = "no-such-linter --check" }
            """
        When the agent asks to run "make"
        Then the tool call is denied with:
            """
            Operation blocked: Command `no-such-linter --check` could not start: no-such-linter was not found on PATH
            """

    Scenario: A passing check never hides a later block
        Given the project policy:
            """
            [[policy]]
            name = "Tests must pass"
            matcher = "Bash"
            action = { type = "run_command", command = "npm test" }

            [[policy]]
            name = "No pushes on Friday"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git push" }]
            action = { type = "block_with_feedback", feedback_message = "No pushes on Friday" }
            """
        And the test suite passes
        When the agent asks to run "git push"
        Then the tool call is denied with:
            """
            Operation blocked: No pushes on Friday
            """

    Scenario: on_failure = "feedback" makes a failing check one more soft message, at its place
        Given the project policy:
            """
            [[policy]]
            name = "Style"
            matcher = "Bash"
            action = { type = "provide_feedback", message = "Prefer make targets" }

            [[policy]]
            name = "Lint"
            matcher = "Bash"
            action = { type = "run_command", command = "npm test", on_failure = "feedback", on_failure_feedback = "Lint found problems:\n{{stdout}}" }

            [[policy]]
            name = "Docs"
            matcher = "Bash"
            action = { type = "provide_feedback", message = "Update the changelog" }
            """
        And the test suite fails with:
            """
            src/a.js:3 unused variable x
            """
        When the agent asks to run "make"
        Then the tool call is denied with:
            """
            Policy feedback found:
            • Prefer make targets
            • Lint found problems:
            src/a.js:3 unused variable x
            • Update the changelog

            Please address these issues before proceeding.
            """

    Scenario Outline: on_failure = "ignore" runs the command only when the operation goes ahead
        Given the project policy:
            """
            [[policy]]
            name = "Remember deploys"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "deploy" }]
            action = { type = "run_command", command = "./notify_script.sh {{command}}", on_failure = "ignore" }

            [[policy]]
            name = "No deploys of main"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "deploy main" }]
            action = { type = "block_with_feedback", feedback_message = "Deploy a release tag" }
            """
        And the project script "notify_script.sh" records its arguments
        When the agent asks to run "<command>"
        Then "notify_script.sh" ran <runs> times

        Examples:
            | command        | runs |
            | ./deploy v1.2  | 1    |
            | ./deploy main  | 0    |

    Scenario: A check written wrongly is refused when the policies load, with every mistake
        Given the project policy:
            """
            [[policy]]
            name = "Broken check"
            matcher = "Bash"
            action = { type = "run_command", command = "{{command}} --fix", on_failure = "explode", timout = 5 }
            """
        When the agent asks to run "make"
        Then the answer is only a note to the user saying "unknown key `timout` (did you mean \"timeout\"?)"
        And the answer is only a note to the user saying "`on_failure` must be \"block\", \"feedback\" or \"ignore\", got 'explode'"
        And the answer is only a note to the user saying "the program to run ('{{command}}') contains a placeholder"
