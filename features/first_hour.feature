Feature: The first hour
    What a new user meets first (the messages, --help, doctor's fixes, working in a subdirectory,
    init) says what is wrong in plain words, on the right line, and never throws work away.

    Rule: Messages a person can act on (15)

        Scenario Outline: A setting out of range, in one line
            Given the project policy:
                """
                [settings]
                <setting>
                """
            When the user runs "cupcake validate"
            Then the output is:
                """
                cupcake.toml:2: error: settings: <message>
                1 error, 0 warnings
                """

            Examples:
                | setting               | message                                           |
                | state_ttl_days = 0    | `state_ttl_days` must be more than 0, not 0       |
                | state_ttl_days = -1.5 | `state_ttl_days` must be more than 0, not -1.5    |

        Scenario: An unknown hook_event is one error, with no word about the matcher
            Given the project policy:
                """
                [[policy]]
                name = "x"
                hook_event = "PreTool"
                matcher = "Bash"
                action = { type = "approve" }
                """
            When the user runs "cupcake validate"
            Then the output is:
                """
                cupcake.toml:3: error: policy "x": unknown hook_event "PreTool" (did you mean "PreToolUse"?)
                1 error, 0 warnings
                """

        Scenario Outline: A misspelt [[policy]] header is reported on its line
            Given the project policy:
                """
                policy_schema_version = "1.0"

                <header>
                name = "x"
                """
            When the user runs "cupcake validate"
            Then the output is:
                """
                cupcake.toml:3: error: <message>
                1 error, 0 warnings
                """

            Examples:
                | header       | message                                                                                     |
                | [policy]     | `policy` must be an array, not a table (write each policy under [[policy]], with two brackets) |
                | [[policies]] | unknown key `policies` (did you mean "policy"?)                                             |

        Scenario: A byte order mark at the start of the file is fine
            Given the project file "cupcake.toml" starts with a byte order mark and holds:
                """
                [[policy]]
                name = "x"
                action = { type = "approve" }
                """
            When the user runs "cupcake validate"
            Then the output is:
                """
                ok: 1 policy in cupcake.toml
                """

        Scenario: An array left open is reported where it was opened
            Given the project policy:
                """
                [[policy]]
                name = "x"
                conditions = [
                  { type = "command_regex", value = "x" },

                action = { type = "approve" }
                """
            When the user runs "cupcake validate"
            Then the output is:
                """
                cupcake.toml:3: error: not valid TOML: Invalid value on line 6: the array opened on line 3 is not closed (a `]` is missing)
                1 error, 0 warnings
                """

        Scenario: An unknown scope
            When the user runs "cupcake sync --scope global"
            Then the exit code is 1
            And the output says "cupcake sync: unknown scope 'global': use project, local or user"
            And nothing shown contains "Value error"

    Rule: In a subdirectory, commands write at the project root (13)

        Scenario: sync in a subdirectory of a git repository writes at its top level, and says so
            Given the user works in "src/app" of a git repository without cupcake.toml
            When the user runs "cupcake sync"
            Then the exit code is 0
            And the output says "Project root: "
            And the output says "the git top level, as no cupcake.toml is above"
            And ".claude/settings.json" calls "cupcake run --event <Event>" on every event, with timeout 600
            And "src/app/.claude/settings.json" does not exist

        Scenario: init --template in a subdirectory writes cupcake.toml at the top level
            Given the user works in "src/app" of a git repository without cupcake.toml
            When the user runs "cupcake init --template --yes --no-sync"
            Then the exit code is 0
            And the output says "init writes there"
            And the file "cupcake.toml" was written
            And "src/app/cupcake.toml" does not exist

    Rule: --help and the command line (16)

        Scenario: --list and --template together are refused, not half-ignored
            When the user runs "cupcake init --list --template"
            Then the exit code is 2
            And the output says "--list and --template do not go together"

        Scenario Outline: Every --help reads as help: no type placeholders, no false "required", and -h works
            When the user runs "cupcake <command> -h"
            Then the exit code is 0
            And the output says "Usage: cupcake <command>"
            And nothing shown contains "<list["
            And nothing shown contains "range>"
            And nothing shown contains "<str>"
            And nothing shown contains "[required]"

            Examples:
                | command      |
                | validate     |
                | init         |
                | sync         |
                | doctor       |
                | audit        |
                | audit stats  |
                | audit verify |
                | systems      |
                | run          |
                | packs        |
                | test         |
                | explain      |
                | replay       |

        Scenario: An agent's name is read in any case; a name that is no agent says which was meant
            Given the project policy:
                """
                imports = ["cupcake:git"]
                """
            When the user runs "cupcake sync --agent Gemini"
            Then the exit code is 0
            And the output says "Wrote Cupcake's Gemini CLI hooks to .gemini/settings.json"
            When the user runs "cupcake sync --agent codx"
            Then the exit code is 2
            And the output says "cupcake sync: --agent: unknown agent 'codx' (did you mean "codex"?); the agents are claude, codex, gemini, copilot, droid, cursor"

        Scenario: Shell completion is one command away
            When the user runs "cupcake --show-completion bash"
            Then the exit code is 0
            And the output says "complete -o default -F _cupcake_completion cupcake"

        Scenario: sync says what it did as JSON, for scripts
            Given the project policy:
                """
                imports = ["cupcake:git"]
                """
            When the user runs "cupcake sync --json"
            Then the exit code is 0
            And the output says ""settings_file": ".claude/settings.json""
            And the output says ""action": "install""

        Scenario: systems --help keeps its example as written
            When the user runs "cupcake systems --help"
            Then the output says "acme-secrets = 450                      # an entry point (group cupcake.systems)"
            And the output says "audit_write = false                     # turn a built-in off (core systems cannot be)"

        Scenario Outline: audit <command> --json says what it prints: one object
            When the user runs "cupcake audit <command> --help"
            Then the output says "--json"
            And the output says "Print one JSON object"

            Examples:
                | command |
                | stats   |
                | verify  |

    Rule: doctor shows each finding as it goes, and every fix it suggests works (12)

        Scenario: Hooks in two scopes: the suggested fix removes the second
            Given the project policy:
                """
                [[policy]]
                name = "Style"
                action = { type = "provide_feedback", message = "lint" }
                """
            And cupcake is on the PATH
            And a fresh login shell finds cupcake too
            And the user runs "cupcake sync"
            And the user runs "cupcake sync --scope local"
            When the user runs "cupcake doctor"
            Then the doctor warns "Cupcake runs more than once per event"
            And its fix says "keep the hooks in .claude/settings.json only: run `cupcake sync --uninstall --scope local`"
            When the user runs the fix
            And the user runs "cupcake doctor"
            Then the doctor finds no problem and no warning

        Scenario: The executable in a local hook is missing: the suggested sync writes one that exists
            Given the project policy:
                """
                [[policy]]
                name = "Style"
                action = { type = "provide_feedback", message = "lint" }
                """
            And the user runs "cupcake sync --scope local --command /opt/nowhere/cupcake"
            When the user runs "cupcake doctor"
            Then the doctor reports the problem "`/opt/nowhere/cupcake` (the hooks in .claude/settings.local.json) is not found there"
            And its fix says "run `cupcake sync --scope local` again"
            When the user runs the fix
            And the user runs "cupcake doctor"
            Then the doctor finds no problem and no warning

        Scenario: The sample runs once, and doctor says so before it starts
            Given the project policy:
                """
                [[policy]]
                name = "Count the samples"
                matcher = "Bash"
                action = { type = "run_command", command = "sh -c 'echo ran >> samples.log'", on_failure = "ignore" }
                """
            And the user runs "cupcake sync --scope local"
            When the user runs "cupcake doctor"
            Then stderr holds "sending a sample PreToolUse"
            And "samples.log" holds 1 line

    Rule: init never throws work away (14)

        Background:
            Given the file "CLAUDE.md":
                """
                Never delete the test fixtures.
                """
            And the stand-in agent writes at attempt 1:
                """
                [[policy]]
                name = "Keep the fixtures"
                action = { type = "teleport" }
                """
            And the user runs "cupcake init --agent-command $STANDIN --attempts 1 --yes"

        Scenario: A draft fixed by hand is picked up on the next run, without asking the agent again
            When the user edits "cupcake.toml.tmp" to hold:
                """
                [[policy]]
                name = "Keep the fixtures"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "rm .*fixtures" }]
                action = { type = "block_with_feedback", feedback_message = "The fixtures stay" }
                """
            And the user runs "cupcake init --agent-command $STANDIN --yes --no-sync"
            Then the exit code is 0
            And the output says "cupcake.toml.tmp was kept from an earlier run"
            And the output says "Going on from cupcake.toml.tmp: the policies load."
            And the stand-in agent ran 1 time
            And "cupcake.toml" holds the policy "Keep the fixtures"

        Scenario: Going on from a draft that does not load: the agent corrects it, and the time of each attempt is shown
            When the user runs "cupcake init --agent-command $STANDIN --no-sync" and answers "y"
            Then the output says "Going on from cupcake.toml.tmp: 1 problem(s) to correct."
            And the stand-in agent's prompt 1 included "teleport"
            And the output says " answered after "

        Scenario: Starting over removes the draft
            When the user runs "cupcake init --agent-command $STANDIN --attempts 1 --no-sync" and answers "n"
            Then the output says "Removed cupcake.toml.tmp; starting over."

    Rule: The README works as written (17)

        Scenario: sync --scope local keeps its personal file and backups out of git
            Given the project policy:
                """
                [[policy]]
                name = "Style"
                action = { type = "provide_feedback", message = "lint" }
                """
            When the user runs "cupcake sync --scope local"
            Then the output says "Added .cupcake/ and .claude/settings.local.json* and .claude/.cupcake-sync.* to .gitignore."
            And ".gitignore" is:
                """
                .cupcake/
                .claude/settings.local.json*
                .claude/.cupcake-sync.*
                """
