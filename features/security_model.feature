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
            conditions = [{ type = "command_regex", value = "git push --force" }]
            action = { type = "block_with_feedback", feedback_message = "No force pushes." }
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

    Scenario: A forged policy cache is not trusted
        The cache is a speed-up, never an authority: it carries an authentication code made with a
        secret kept outside the project, so a cache written by anything else is compiled again.
        Given the project policy:
            """
            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        And the user runs "cupcake sync"
        When the agent asks to run "ls"
        And the policy cache is forged to switch every policy off
        And the agent asks to run "rm -rf build"
        Then the tool call is denied

    Scenario: validate and doctor compile from source and say loudly when the cache disagrees
        An agent running as the user can read the secret too; validate and doctor never read the cache
        to decide, and they report one that disagrees with the policy files.
        Given the per-user secret exists, as `cupcake sync` leaves it
        And the project policy:
            """
            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        When the agent asks to run "ls"
        And the policy cache is forged to switch every policy off with the user's own secret
        And the user runs "cupcake validate"
        Then the exit code is 1
        And the output says "WARNING: the policy cache was NOT trusted"
        When the agent asks to run "rm -rf build"
        Then the tool call is denied
        When the policy cache is forged to switch every policy off with the user's own secret
        And the user runs "cupcake doctor"
        Then the doctor reports the problem "the policy cache was NOT trusted"

    Scenario: Creating a .cupcake directory deeper down does not move the project root
        Given the project policy:
            """
            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        And the agent works in "src/" without CLAUDE_PROJECT_DIR
        And the file "src/.cupcake/state/planted" exists
        When the agent asks to run "rm -rf build"
        Then the tool call is denied

    Scenario Outline: A policy file that is not a regular file is an error, never a hang
        Switching everything off without touching a protected file: a directory or a FIFO named
        ~/.claude/cupcake.toml. The run answers at once and says what is wrong; the project's
        policies still hold.
        Given the project policy:
            """
            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        And the user policy file is <kind>
        When the agent asks to run "rm -rf build"
        Then the answer came within 5 seconds
        And nothing shown contains "Traceback"

        Examples:
            | kind        |
            | a directory |
            | a FIFO      |

    Scenario Outline: A lone surrogate is text no program can be handed, so the call is blocked
        An agent controls every value of its tool calls, including strings that are not Unicode text
        (a lone UTF-16 surrogate). Cupcake cannot tell what file or command such a call names, so it
        blocks it and says why, whatever fail_mode says.
        Given the project policy:
            """
            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        When the agent uses the tool "<tool>" with:
            """
            <input>
            """
        Then the tool call is denied
        And nothing shown contains "Traceback"

        Examples:
            | tool  | input                                                   |
            | Bash  | {"command": "rm -rf build \ud800"}                      |
            | Write | {"file_path": "\ud800/../cupcake.toml", "content": "x"}  |
            | Write | {"file_path": ".cupcake/x\ud800", "content": "x"}       |
            | Write | {"file_path": "notes\ud800.txt", "content": "fine"}     |

    Scenario: The model is told which value was not Unicode text
        Given the project policy:
            """
            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        When the agent uses the tool "Write" with:
            """
            {"file_path": "notes\ud800.txt", "content": "fine"}
            """
        Then the tool call is denied
        And the model is shown a note that "tool_input.file_path holds text that is not valid Unicode (a lone surrogate)"

    Scenario: The evaluator's eval folder is protected
        The evaluator's findings gate the agent; a newer eval file written by the agent would lift the
        gate, so the eval folder is protected like .cupcake/.
        Given the project policy:
            """
            [settings.eval_feedback]
            dir = "logs/evals"

            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        When the agent uses the tool "Write" with:
            """
            {"file_path": "logs/evals/eval-9999.json", "content": "{}"}
            """
        Then the tool call is denied

    Scenario: A value that starts with a dash is a path to the check, never an option
        An agent that names its file "--output=cupcake.toml" would make `git diff {{file_path}}` write
        the policy file. A path value that starts with "-" reaches the program as "./--output=…".
        Given the project policy:
            """
            [[policy]]
            name = "Log writes"
            matcher = "Write"
            action = { type = "run_command", command = "./notify_script.sh {{file_path}}" }
            """
        And the project script "notify_script.sh" records its arguments
        When the agent uses the tool "Write" with:
            """
            {"file_path": "--output=cupcake.toml", "content": "x"}
            """
        Then "notify_script.sh" received exactly the arguments:
            """
            ["./--output=cupcake.toml"]
            """

    Scenario: Any other value that starts with a dash fails the check, saying why
        Given the project policy:
            """
            [[policy]]
            name = "Log commands"
            matcher = "Bash"
            action = { type = "run_command", command = "./notify_script.sh {{command}}" }
            """
        And the project script "notify_script.sh" records its arguments
        When the agent asks to run "--help"
        Then the tool call is denied
        And the model is shown a note that "the value of {{command}} starts with '-'"
        And "notify_script.sh" ran 0 times

    Scenario: A placeholder where a shell would read it as code is refused when the policies load
        bash evaluates the contents of a value used in arithmetic, so `a[$(touch pwned)]` would run.
        Cupcake refuses such a script before anything runs.
        Given the project policy:
            """
            [[policy]]
            name = "Count"
            matcher = "Bash"
            action = { type = "run_command", command = "echo $(( {{command}} + 1 ))", shell = true }
            """
        When the agent asks to run "echo 'a[$(touch pwned)]'"
        Then the answer is only a note to the user saying "{{command}} stands inside an arithmetic expression"
        And no file "pwned" was created

    Scenario: A program named without a path is never taken from the project
        The project is the agent's to write; a program it planted there under the name the policy uses
        does not run. A script in the project is named as a path: "./scripts/check.sh".
        Given the project policy:
            """
            [[policy]]
            name = "Lint first"
            matcher = "Bash"
            action = { type = "run_command", command = "cupcake-no-such-linter" }
            """
        And the project script "cupcake-no-such-linter" records its arguments
        When the agent asks to run "ls"
        Then the tool call is denied
        And the model is shown a note that "cupcake-no-such-linter was not found on PATH"
        And "cupcake-no-such-linter" ran 0 times

    Scenario Outline: Cutting the audit log anywhere is caught by verify
        The hash chain shows a line removed from the middle; the anchor kept beside the log
        (.cupcake/audit.anchor) shows lines cut off its head or its tail, and rotated files deleted.
        Given the project policy:
            """
            [settings]
            audit_logging = true
            audit_allows = true
            """
        When the agent runs 4 commands
        And someone removes line <line> of the audit log
        And the user runs "cupcake audit verify"
        Then the exit code is 1
        And the output says "<finding>"

        Examples:
            | line | finding                            |
            | 1    | 1 line was cut from the head       |
            | 2    | 1 line is missing                  |
            | 4    | 1 line was cut from the tail       |

    Scenario: Holding the audit lock does not suppress a record, nor delay the answer
        Given the project policy:
            """
            [settings]
            audit_logging = true

            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        And another process holds the audit lock
        When the agent asks to run "rm -rf build"
        Then the tool call is denied
        And the answer came within 3 seconds
        And the user is told "the record was kept in .cupcake/audit.pending."
        When the other process lets the audit lock go
        And the user runs "cupcake audit verify"
        Then the exit code is 0
        And the output says "Audit trail intact: 1 line"

    Scenario: A .cupcake folder that is a symbolic link is never written through
        An agent that replaces .cupcake by a link to another folder would have Cupcake write its cache,
        state and audit trail there. Cupcake refuses the link, still decides, and says why.
        Given the project policy:
            """
            [settings]
            audit_logging = true

            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        And the folder "~/elsewhere" exists
        And ".cupcake" is a symlink to "../home/elsewhere"
        When the agent asks to run "rm -rf build"
        Then the tool call is denied
        And the user is told ".cupcake is a symbolic link"
        And the folder "~/elsewhere" is still empty

    Scenario: A failed tool call does not count as done
        "Run the tests before committing" is not satisfied by a test run that failed or was interrupted.
        Given the project policy:
            """
            [[policy]]
            name = "Tests before commits"
            matcher = "Bash"
            conditions = [
              { type = "command_regex", value = "git commit" },
              { type = "state_missing", tool = "Bash", command = "pytest" },
            ]
            action = { type = "block_with_feedback", feedback_message = "Run pytest first." }
            """
        When Claude Code reports that "pytest -q" failed
        And the agent asks to run "git commit -m wip"
        Then the tool call is denied
        When Claude Code reports that the agent ran "pytest -q"
        And the agent asks to run "git commit -m wip"
        Then the tool call is let through

    Scenario Outline: An MCP tool may not write a protected path either
        Given the project policy:
            """
            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        When the agent uses the tool "<tool>" with:
            """
            <input>
            """
        Then the tool call is <outcome>

        Examples:
            | tool                          | input                                                  | outcome     |
            | mcp__filesystem__write_file   | {"path": "cupcake.toml", "content": "x"}               | denied      |
            | mcp__filesystem__move_file    | {"source": ".cupcake", "destination": "old"}           | denied      |
            | mcp__filesystem__read_file    | {"path": "cupcake.toml"}                               | let through |
            | mcp__filesystem__write_file   | {"path": "notes.txt", "content": "x"}                  | let through |

    Scenario: A write to a hard link of Claude Code's settings is blocked
        A hard link is the same file under another name: writing it writes the protected file.
        Given the file ".claude/settings.json" exists
        And "notes.json" is a hard link to ".claude/settings.json"
        When the agent asks to write "notes.json" with:
            """
            {"hooks": {}}
            """
        Then the tool call is denied
        And the model is shown a note that "(a hard link)"

    Scenario: A lone surrogate is masked in the audit trail, and the record is whole
        Given the project policy:
            """
            [settings]
            audit_logging = true

            [[policy]]
            name = "no rm -rf"
            conditions = [{ type = "command_regex", value = "rm -rf" }]
            action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
            """
        When the agent uses the tool "Bash" with:
            """
            {"command": "rm -rf build \ud800"}
            """
        Then the tool call is denied
        And the last audit record's command is "rm -rf build ?"
        And every line of the audit log is a whole JSON record

    Rule: A hook event Cupcake cannot read is blocked, saying what, whatever fail_mode says
        The agent shapes its tool input, so it could hide a write from every check by making the event
        unreadable. Cupcake reads no further than its limits (100 levels, 32 MiB, 500,000 values,
        numbers of 4,300 digits, UTF-8 and Unicode text) and blocks, saying what it could not read.

        Scenario Outline: An event past Cupcake's limits is denied
            Given the project policy:
                """
                [[policy]]
                name = "no rm -rf"
                conditions = [{ type = "command_regex", value = "rm -rf" }]
                action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
                """
            When the agent sends a Bash call whose input <shape>
            Then the tool call is denied
            And the model is shown a note that "Cupcake could not read this hook event, so it is blocked: <what>"

            Examples:
                | shape                      | what                             |
                | is nested 1000 levels deep | it is nested more than 100 levels deep |
                | holds a 5000-digit number  | it holds a number of 5000 digits |
                | is larger than 32 MiB      | it is larger than 32 MiB         |
                | is not UTF-8               | it is not UTF-8 text             |
                | holds a lone surrogate     | tool_input.command holds text that is not valid Unicode |

    Rule: A policy file Cupcake cannot load is an error for that file alone
        Its policies are out of service, every run says so (and blocks under fail_mode "closed"), the
        other files' policies and self-protection stay on, and validate names the file and the line.

        Scenario: The user's file nested 500 deep does not take the project's rules with it
            Given the project policy:
                """
                [[policy]]
                name = "no rm -rf"
                conditions = [{ type = "command_regex", value = "rm -rf" }]
                action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
                """
            And the user's policy file holds an array nested 500 deep
            When the agent asks to run "rm -rf build"
            Then the tool call is denied by the policy "no rm -rf"
            And the user is told "~/.claude/cupcake.toml:1: arrays and inline tables are nested more than 64 deep here"
            When the agent uses Write on "~/.claude/cupcake.toml"
            Then the tool call is denied
            When the user runs "cupcake validate"
            Then the exit code is 1
            And the output says "~/.claude/cupcake.toml:1: error: arrays and inline tables are nested more than 64 deep here"

    Rule: A forged policy cache never weakens a run
        With no per-user secret, no cache is written or trusted: a cache sealed without one is
        anyone's to forge, so every run compiles the policy files instead.

        Scenario: A cache sealed without a key is not trusted once the secret is gone
            Given the per-user secret exists, as `cupcake sync` leaves it
            And the project policy:
                """
                [[policy]]
                name = "no rm -rf"
                conditions = [{ type = "command_regex", value = "rm -rf" }]
                action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
                """
            When the agent asks to run "ls"
            And the policy cache is forged to switch every policy off, unkeyed, and the per-user secret is removed
            And the agent asks to run "rm -rf build"
            Then the tool call is denied

    Rule: Nothing the agent can write changes what the hook runs
        `cupcake` starts Python isolated (-I -S): no PYTHON* variable, no user site, no .pth file,
        sitecustomize or usercustomize runs before Cupcake. The installation itself (package,
        launcher, its Python and their start-up files) is protected like the policy files.

        Scenario: Start-up files and PYTHON* variables that end every Python change nothing
            Given the project policy:
                """
                [[policy]]
                name = "no rm -rf"
                conditions = [{ type = "command_regex", value = "rm -rf" }]
                action = { type = "block_with_feedback", feedback_message = "No rm -rf." }
                """
            And a .pth file and a sitecustomize.py that end every Python are in the installation's site-packages
            And the hook's environment points PYTHONPATH and PYTHONSTARTUP at more of them, and sets PYTHONINSPECT
            When the agent asks, through the cupcake command, to run "rm -rf build"
            Then the tool call is denied by the policy "no rm -rf"
            And none of them ran

        Scenario Outline: The agent may not write the installation the hook runs
            Given the project policy:
                """
                [[policy]]
                name = "anything goes"
                action = { type = "approve" }
                """
            When the agent asks to write the installation's <part>
            Then the tool call is denied
            And the model is shown a note that "part of the installed Cupcake package or of what runs it"

            Examples:
                | part               |
                | package            |
                | launcher           |
                | cupcake-python     |
                | pyvenv.cfg         |
                | site-packages .pth |
                | sitecustomize.py   |
