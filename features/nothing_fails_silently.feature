Feature: Nothing fails silently
    A policy either does what it was written for, or Cupcake says why not: `validate`, `run`, `sync`
    and `doctor` read the policy files with one loader and agree on what is wrong.

    1. A policy on an event no installed hook calls: `sync` installs a hook for every event a
       policy names; `validate` warns and `doctor` fails while one is missing.
    2. A matcher no tool can match (`bash`, or the permission syntax `Bash(git *)`): `validate`
       warns, and for the permission syntax prints the policy that means it.
    3. An approve or ask that answers first for calls a later block is written to stop: `validate`
       warns (`--strict` fails), naming both policies and their order.
    4. A check written with shell syntax (`&&`, `|`, `;` …) but without `shell = true` is an error
       that names the fix: without a shell, `&&` would be passed to the program as an argument.
    5. A mistake in one policy puts that policy out of service, alone: every other policy still
       enforces, and every run tells the user what is out of service and why (with fail_mode
       "closed", every event that can be blocked is blocked until it is fixed).
    6. A misspelt `--event` is reported with the nearest event name (and blocks when closed).
    7. What `validate` accepts, `run` and `sync` accept too: an unknown system under
       [pipeline.systems] or `hook_timeout_seconds = 0` is an error everywhere.
    8. A hook event that is not valid JSON is reported as such.
    9. A policy cache written by other code is never trusted.
    10. fail_mode "closed" holds even when Cupcake itself cannot start: the hook blocks.
    11. A Stop policy cannot keep the agent going forever: after `stop_block_limit` blocked stops
        in a row (default 5), the stop goes through and the user is told.

    Rule: A broken policy is out of service alone (5)

        Scenario: Two files name the same policy: the first one enforces, the second is out of service
            Given the project policy:
                """
                [[policy]]
                name = "No rm -rf"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "rm -rf" }]
                action = { type = "block_with_feedback", feedback_message = "Delete files one by one" }
                """
            And the user policy:
                """
                [[policy]]
                name = "No rm -rf"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "rm -rf /" }]
                action = { type = "block_with_feedback", feedback_message = "Never the root" }
                """
            When the agent asks to run "rm -rf build"
            Then the tool call is denied with:
                """
                Operation blocked: Delete files one by one
                """
            And the user is told "out of service until fixed (every other policy is enforced):\n- ~/.claude/cupcake.toml:2: policy \"No rm -rf\": duplicate policy name: also defined at cupcake.toml:1"

        Scenario Outline: A typo in one policy leaves the others enforcing, and every run reports it
            Given the project policy:
                """
                [settings]
                fail_mode = "<fail_mode>"

                [[policy]]
                name = "No rm -rf"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "rm -rf" }]
                action = { type = "block_with_feedback", feedback_message = "Delete files one by one" }

                [[policy]]
                name = "No sudo"
                matcher = "Bash"
                action = { type = "blok", feedback_message = "No sudo" }
                """
            When the agent asks to run "rm -rf build"
            Then the tool call is denied
            And the model is shown a note that "<reason>"
            When the agent asks to run "ls"
            Then the answer is <answer> saying "cupcake.toml:13: policy \"No sudo\": unknown action type \"blok\""

            Examples:
                | fail_mode | reason                              | answer                  |
                | open      | Operation blocked: Delete files one by one | only a note to the user |
                | closed    | Operation blocked: Delete files one by one | a denial                |

        Scenario: With fail_mode "closed", an event that cannot be blocked still gets the other policies' answer
            Given the project policy:
                """
                [settings]
                fail_mode = "closed"

                [[policy]]
                name = "House rules"
                hook_event = "SessionStart"
                action = { type = "inject_context", text = "Run the tests before you commit." }

                [[policy]]
                name = "Broken"
                action = { type = "approve", reasn = "typo" }
                """
            When a session starts
            Then the model is given the context:
                """
                Run the tests before you commit.
                """
            And the user is told "cupcake.toml:11: policy \"Broken\": "

    Rule: A hook event that is not JSON is reported as such (8)

        Scenario Outline: The installed cupcake command, in a fresh process, names what is wrong with its input
            Given the project policy:
                """
                [[policy]]
                name = "No sudo"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^sudo" }]
                action = { type = "block_with_feedback", feedback_message = "No sudo" }
                """
            When the cupcake command gets "<input>" on stdin as the PreToolUse event
            Then the answer is only a note to the user saying "the hook event on stdin is not valid JSON: <problem>"
            And no stack trace is shown

            Examples:
                | input        | problem                                                    |
                | {not json    | Expecting property name enclosed in double quotes: line 1 column 2 (char 1) |
                | {"a": [1, 2  | Expecting ',' delimiter                                    |
                |              | the input is empty                                         |

    Rule: fail_mode "closed" holds even when Cupcake cannot start (10)
        `cupcake sync` writes the mode into the hook command itself (`--fail-closed || exit 2`), so a
        Cupcake that cannot import its own modules still blocks.

        Scenario Outline: A broken module of the installed Cupcake blocks when closed, and is reported when open
            Given the project policy:
                """
                [settings]
                fail_mode = "<fail_mode>"

                [[policy]]
                name = "No sudo"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^sudo" }]
                action = { type = "block_with_feedback", feedback_message = "No sudo" }
                """
            And the user runs "cupcake sync --scope local"
            And the installed Cupcake's module "<module>" is broken
            When Claude Code runs the PreToolUse hook that sync wrote, for the command "ls"
            Then the hook <outcome> saying "<text>"

            Examples:
                | fail_mode | module                       | outcome                              | text                                                         |
                | closed    | cupcake/cli/entry.py         | blocks the call (exit 2)             | Cupcake: cannot start, so this is blocked (fail_mode \"closed\") |
                | closed    | cupcake/cli/run.py           | blocks the call (exit 2)             | Cupcake: internal error, so this is blocked (fail_mode \"closed\") |
                | closed    | cupcake/systems/policy_load.py | blocks the call (exit 2)           | Cupcake: internal error, so this is blocked (fail_mode \"closed\") |
                | open      | cupcake/pipeline/runner.py   | only tells the user                  | Cupcake: internal error, no policy was enforced for this event |

    Rule: A misspelt event is reported with the nearest event name (6)

        Scenario Outline: `--event PreTooluse` in a hook command
            Given the project policy:
                """
                [settings]
                fail_mode = "<fail_mode>"

                [[policy]]
                name = "Style"
                action = { type = "provide_feedback", message = "lint" }
                """
            When the hook runs cupcake with the arguments "run --event PreTooluse"
            Then the answer is <answer> saying "unknown event \"PreTooluse\" (did you mean \"PreToolUse\"?): no agent sends it"

            Examples:
                | fail_mode | answer                  |
                | open      | only a note to the user |
                | closed    | a denial                |

    Rule: A Stop policy cannot keep the agent going forever (11)
        Claude Code calls Stop again, with `stop_hook_active` true, after a Stop was blocked. After
        `stop_block_limit` blocked stops in a row (default 5), the next stop goes through and the
        user is told; a stop the agent makes of its own accord (`stop_hook_active` false) starts
        a new count.

        Background:
            Given the project policy:
                """
                [[policy]]
                name = "Finish the tests"
                hook_event = "Stop"
                action = { type = "block_with_feedback", feedback_message = "The tests are not green yet" }
                """

        Scenario: The sixth stop in a row goes through, and the user is told why
            When Claude Code sends the captured "Stop" event, then 5 more times with stop_hook_active true
            Then the first 5 stops were blocked with "Operation blocked: The tests are not green yet"
            And the last stop went through, and the user is told "the agent was let stop: 5 stops in a row were blocked, the most allowed ([settings] stop_block_limit = 5)"

        Scenario: stop_block_limit sets the cap, and a fresh stop starts a new count
            Given the project policy:
                """
                [settings]
                stop_block_limit = 1

                [[policy]]
                name = "Finish the tests"
                hook_event = "Stop"
                action = { type = "block_with_feedback", feedback_message = "The tests are not green yet" }
                """
            When Claude Code sends the captured "Stop" event, then 1 more time with stop_hook_active true
            Then the first 1 stops were blocked with "Operation blocked: The tests are not green yet"
            And the last stop went through, and the user is told "stop_block_limit = 1"
            When Claude Code sends the captured "Stop" event
            Then Cupcake answers {"decision":"block","reason":"Operation blocked: The tests are not green yet"}

    Rule: A policy cache written by other code is never trusted (9)
        The cache is keyed by the code that compiled it, all of it: a new install (its install
        record is written anew), or in a source checkout any changed module, rebuilds it.

        Scenario Outline: A change to code that shapes the compiled policies rebuilds the cache
            Given the per-user secret exists, as `cupcake sync` leaves it
            And the project policy:
                """
                [[policy]]
                name = "No sudo"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^sudo" }]
                action = { type = "block_with_feedback", feedback_message = "No sudo" }
                """
            And a copy of the installed Cupcake <record> its install record comes first on the Python path
            When the agent asks, through the cupcake command, to run "ls"
            Then the policy cache exists
            When the agent asks, through the cupcake command, to run "ls"
            Then the policy cache was not rewritten
            When the copy's "<changed>" is changed
            And the agent asks, through the cupcake command, to run "sudo ls"
            Then the policy cache was rebuilt
            And the tool call is denied

            Examples:
                | record  | changed                             |
                | with    | its install record                  |
                | without | cupcake/compile/schema.py           |
                | without | cupcake/compile/compile_actions.py  |
                | without | cupcake/compile/state_conditions.py |
                | without | cupcake/agents/claude/render.py     |
                | without | cupcake/packs/git.toml              |

    Rule: What validate accepts, run and sync accept too (7)

        Scenario: A custom system that is not installed is an error for validate, as for every run
            Given the project policy:
                """
                [pipeline.systems]
                acme-secrets = 450
                """
            When the user runs "cupcake validate"
            Then the exit code is 1
            And the output says "cupcake.toml:2: error: custom system "acme-secrets" could not be loaded: no installed distribution has an entry point "acme-secrets" in the group "cupcake.systems""
            When the agent asks to run "ls"
            Then the answer is only a note to the user saying "custom system \"acme-secrets\" (cupcake.toml:2) could not be loaded: no installed distribution has an entry point \"acme-secrets\""

        Scenario: hook_timeout_seconds = 0 is an error for validate, as for sync
            Given the project policy:
                """
                [settings]
                hook_timeout_seconds = 0
                """
            When the user runs "cupcake validate"
            Then the output is:
                """
                cupcake.toml:2: error: settings: `hook_timeout_seconds` must be more than 0, not 0
                1 error, 0 warnings
                """
            When the user runs "cupcake sync"
            Then the exit code is 1
            And the output says "cupcake.toml:2: settings: `hook_timeout_seconds` must be more than 0, not 0"
            And ".claude/settings.json" does not exist
            When the agent asks to run "ls"
            Then the answer is only a note to the user saying "cupcake.toml:2: settings: `hook_timeout_seconds` must be more than 0, not 0"

    Rule: A check with shell syntax needs `shell = true` (4)

        Scenario Outline: Shell operators in a command that runs without a shell are an error naming the fix
            Given the project policy:
                """
                [[policy]]
                name = "Lint and test"
                matcher = "Bash"
                action = { type = "run_command", command = "<command>" }
                """
            When the user runs "cupcake validate"
            Then the exit code is 1
            And the output says "cupcake.toml:4: error: policy "Lint and test": action run_command: command: uses shell syntax (<operators>) but runs without a shell"
            And the output says "add `shell = true` to the action"

            Examples:
                | command                      | operators  |
                | npm run lint && npm test     | `&&`       |
                | true && false                | `&&`       |
                | echo hi \| grep nope         | `\|`       |
                | make lint; make test         | `;`        |
                | pytest > out.txt             | `>`        |
                | echo $(whoami)               | `$(`       |

        Scenario: Quoted operators are arguments, and with shell = true the shell runs them
            Given the project policy:
                """
                [[policy]]
                name = "Pattern"
                matcher = "Bash"
                action = { type = "run_command", command = "grep -E 'a|b;c' README.md" }

                [[policy]]
                name = "Lint and test"
                matcher = "Bash"
                action = { type = "run_command", command = "true && false", shell = true }
                """
            When the user runs "cupcake validate"
            Then the exit code is 0

    Rule: Every event a policy names has a hook (1)

        Scenario: sync installs a hook for every event a policy names, besides Cupcake's own
            Given the project policy:
                """
                [[policy]]
                name = "Subagents follow the house rules"
                hook_event = "SubagentStart"
                action = { type = "provide_feedback", message = "Read CONTRIBUTING.md first" }

                [[policy]]
                name = "Note directory changes"
                hook_event = "CwdChanged"
                action = { type = "provide_feedback", message = "Stay inside the repository" }
                """
            When the user runs "cupcake sync"
            Then the output says "Wrote Cupcake's Claude Code hooks to .claude/settings.json: 13 events"
            And ".claude/settings.json" has a Cupcake hook on "SubagentStart"
            And ".claude/settings.json" has a Cupcake hook on "CwdChanged"
            And ".claude/settings.json" has a Cupcake hook on "PreToolUse"

        Scenario: A policy on an event no installed hook calls: validate warns, doctor fails, sync fixes it
            Given the user runs "cupcake sync"
            And the project policy:
                """
                [[policy]]
                name = "Batch summary"
                hook_event = "PostToolBatch"
                action = { type = "provide_feedback", message = "Summarise the batch" }
                """
            When the user runs "cupcake validate"
            Then the output is:
                """
                cupcake.toml:1: warning: policy "Batch summary": no installed hook calls Cupcake on PostToolBatch, so this policy never runs; run `cupcake sync` to install one
                0 errors, 1 warning
                """
            When the user runs "cupcake doctor"
            Then the exit code is 1
            And the doctor reports the problem "policy "Batch summary" (cupcake.toml:1) is on PostToolBatch, and no installed hook calls Cupcake on PostToolBatch: it never runs"
            And its fix says "run `cupcake sync`"
            When the user runs "cupcake sync"
            And the user runs "cupcake validate"
            Then the output is:
                """
                ok: 1 policy in cupcake.toml
                """

    Rule: A matcher that no tool can match is a warning (2)

        Scenario: Claude Code's permission syntax, and a tool name in the wrong case
            Given the project policy:
                """
                [[policy]]
                name = "No force pushes"
                matcher = "Bash(git *)"
                conditions = [{ type = "command_regex", value = "--force" }]
                action = { type = "block_with_feedback", feedback_message = "No force pushes" }

                [[policy]]
                name = "No sudo"
                matcher = "bash"
                conditions = [{ type = "command_regex", value = "^sudo" }]
                action = { type = "block_with_feedback", feedback_message = "No sudo" }

                [[policy]]
                name = "Files and tools"
                matcher = "Write|Edit|mcp__github__.*"
                action = { type = "provide_feedback", message = "Keep it small" }
                """
            When the user runs "cupcake validate --strict"
            Then the output is:
                """
                cupcake.toml:3: warning: policy "No force pushes": `matcher` "Bash(git *)" is Claude Code's permission-rule syntax, which a matcher is not: read as a regex over the tool name it matches no tool, so this policy never runs. The policy that means it: matcher = "Bash", conditions = [{ type = "command_regex", value = '^git .*$' }]
                cupcake.toml:9: warning: policy "No sudo": `matcher`: "bash" is no tool Claude Code sends (tool names are case-sensitive, such as Bash, Edit or mcp__server__tool), so this policy never runs (did you mean "Bash"?)
                0 errors, 2 warnings
                """
            And the exit code is 1

    Rule: An approve or ask that can answer before a block is a warning (3)
        The first hard action wins, in list order. An approve of `^git ` before a block of
        `git push.*--force` lets the force push through, and skips Claude Code's permission prompt.

        Scenario: An approve before a block on the same tool
            Given the project policy:
                """
                [[policy]]
                name = "Trust git"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^git " }]
                action = { type = "approve", reason = "git is fine" }

                [[policy]]
                name = "Deploys need a person"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "deploy" }]
                action = { type = "ask", reason = "Deploys need a person" }

                [[policy]]
                name = "No force pushes"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "git push.*--force" }]
                action = { type = "block_with_feedback", feedback_message = "No force pushes" }
                """
            When the user runs "cupcake validate"
            Then the output is:
                """
                cupcake.toml:13: warning: policy "No force pushes": can be pre-empted by "Trust git" (cupcake.toml:1), which comes first (policy 1 of the evaluation order; this one is 3) and approves PreToolUse calls of Bash too: the first hard action wins, so where both match the call is allowed (skipping Claude Code's permission prompt) and this block never happens. Put this policy first, or narrow "Trust git"
                0 errors, 1 warning
                """
            And the exit code is 0
            When the user runs "cupcake validate --strict"
            Then the exit code is 1
            When the agent asks to run "git push --force"
            Then the tool call is allowed with the reason "git is fine"

        Scenario: An ask before a block, in the other file
            Given the project policy:
                """
                [[policy]]
                name = "Deploys need a person"
                matcher = "Bash|Read"
                action = { type = "ask", reason = "Deploys need a person" }
                """
            And the user policy:
                """
                [[policy]]
                name = "No sudo"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^sudo" }]
                action = { type = "block_with_feedback", feedback_message = "No sudo" }
                """
            When the user runs "cupcake validate"
            Then the output says "~/.claude/cupcake.toml:1: warning: policy "No sudo": can be pre-empted by "Deploys need a person" (cupcake.toml:1), which comes first (policy 1 of the evaluation order; this one is 2) and asks about PreToolUse calls of Bash too"
            And the output says "where both match the person is asked instead"
