Feature: The audit trail
    With [settings] audit_logging = true, every run in which a policy matched, a command ran or
    something failed appends one JSON line to .cupcake/audit.log: when, which session, event and
    tool, a short summary of what the agent asked for (the command or the file path, never file
    contents), the policies that matched, the decision, the text the agent was sent, the commands
    that ran, what failed, the Cupcake version and how long the run took. audit_allows = true also
    logs the runs in which nothing matched. Values that look like keys, tokens or passwords are
    masked. Each line ends with the hash of its own bytes and carries the hash of the line before
    it, so `cupcake audit verify` finds lines that were edited, removed or inserted. The log is
    written after the answer is decided and never changes it: if it cannot be written, the answer
    says so in a warning. `cupcake audit` shows the log as a table, filtered, followed, as JSON
    Lines, or counted (`stats`).

    Background:
        Given the project policy:
            """
            [settings]
            audit_logging = true

            [[policy]]
            name = "Never delete the data directory"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "rm\\s+-rf\\s+data" }]
            action = { type = "block_with_feedback", feedback_message = "The data directory holds the only copy of the fixtures" }

            [[policy]]
            name = "Formatting is always fine"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^black\\b" }]
            action = { type = "approve", reason = "formatting is safe" }

            [[policy]]
            name = "Prefer make targets"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^(black|pytest)\\b" }]
            action = { type = "provide_feedback", message = "Prefer `make fmt` and `make test`" }

            [[policy]]
            name = "Deploys need a person"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^kubectl apply" }]
            action = { type = "ask", reason = "Deploying changes the cluster" }

            [[policy]]
            name = "No curl to production"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^curl .*prod" }]
            action = { type = "block_with_feedback", feedback_message = "Production is off limits" }
            """

    Scenario: A block is recorded as one line, with what was asked and what the agent was told
        When the agent asks to run "rm -rf data"
        Then the tool call is denied
        And the audit log has 1 line
        And the last audit record says:
            | field    | value                                                                     |
            | v        | 1                                                                         |
            | seq      | 1                                                                         |
            | session  | "8f14e45f-ceea-467e-9e2e-2a1b3c4d5e6f"                                    |
            | event    | "PreToolUse"                                                              |
            | tool     | "Bash"                                                                    |
            | input    | {"command": "rm -rf data"}                                                |
            | matched  | ["Never delete the data directory"]                                       |
            | policy   | "Never delete the data directory"                                         |
            | decision | "block"                                                                   |
            | message  | "Operation blocked: The data directory holds the only copy of the fixtures" |
            | version  | "0.1.0"                                                                   |
        And the last audit record was written just now, in UTC
        And the last audit record took a number of milliseconds

    Scenario Outline: Each decision is recorded as what it was
        When the agent asks to run "<command>"
        Then the last audit record says:
            | field    | value      |
            | decision | <decision> |
            | message  | <message>  |

        Examples:
            | command                   | decision   | message                                                                                                        |
            | rm -rf data               | "block"    | "Operation blocked: The data directory holds the only copy of the fixtures"                                    |
            | black .                   | "approve"  | "formatting is safe\n\nPolicy feedback found:\n• Prefer `make fmt` and `make test`\n\nPlease address these issues before proceeding." |
            | kubectl apply -f app.yaml | "ask"      | "Deploying changes the cluster"                                                                                |
            | pytest -x                 | "feedback" | "Policy feedback found:\n• Prefer `make fmt` and `make test`\n\nPlease address these issues before proceeding." |

    Scenario: A run that failed is recorded as an error, with what failed
        Given the project policy:
            """
            [settings]
            audit_logging = true
            fail_mode = "closed"

            [[policy]]
            name = "Typo in the action"
            matcher = "Bash"
            action = { type = "blok", feedback_message = "No sudo" }
            """
        When the agent asks to run "sudo reboot"
        Then the last audit record says:
            | field    | value      |
            | decision | "error"    |
            | matched  | []         |
        And the last audit record names the failure "unknown action type \"blok\""

    Scenario: Without audit_logging nothing is written
        Given the project policy:
            """
            [[policy]]
            name = "Never delete the data directory"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "rm\\s+-rf\\s+data" }]
            action = { type = "block_with_feedback", feedback_message = "The data directory holds the only copy of the fixtures" }
            """
        When the agent asks to run "rm -rf data"
        Then the tool call is denied
        And there is no audit log

    Scenario: The user's file can turn the audit trail on for every project
        Given the user policy:
            """
            [settings]
            audit_logging = true
            """
        And the project policy:
            """
            [settings]
            audit_logging = false

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        When the agent asks to run "sudo reboot"
        Then the audit log has 1 line

    Scenario: A run in which nothing matched is not logged by default
        When the agent asks to run "ls -la"
        Then the tool call is let through
        And there is no audit log

    Scenario: With audit_allows, a run in which nothing matched is logged too
        Given the project policy:
            """
            [settings]
            audit_logging = true
            audit_allows = true
            """
        When the agent asks to run "ls -la"
        Then Cupcake prints nothing
        And the last audit record says:
            | field    | value                 |
            | decision | "allow"               |
            | matched  | []                    |
            | input    | {"command": "ls -la"} |
            | message  | ""                    |

    Scenario: A file being written is summarised by its path, never its contents
        Given the project policy:
            """
            [settings]
            audit_logging = true

            [[policy]]
            name = "Use the design system"
            matcher = "Write"
            conditions = [{ type = "file_content_regex", value = "<button" }]
            action = { type = "provide_feedback", message = "Use <Button> from @/ui" }
            """
        When the agent asks to write "src/App.tsx" with:
            """
            export const App = () => <button onClick={launch}>Launch the rocket</button>
            """
        Then the last audit record's input is the path of "src/App.tsx"
        And the audit log does not contain "Launch the rocket"

    Scenario: Commands that ran are recorded with their exit code and duration
        Given the project policy:
            """
            [settings]
            audit_logging = true

            [[policy]]
            name = "Tests must pass before committing"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^git commit" }]
            action = { type = "run_command", command = "npm test" }
            """
        And the test suite fails with:
            """
            1 failing
            """
        When the agent asks to run "git commit -m wip"
        Then the tool call is denied
        And the last audit record ran the command "npm test" with exit code 1

    Scenario Outline: A secret in a command is masked
        When the agent asks to run "<command>"
        Then the audit log does not contain "<secret>"
        And the last audit record's command is "<masked>"

        Examples:
            | command                                                                  | secret                                   | masked                                                      |
            | curl -H 'Authorization: Bearer eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJl' prod | eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJl      | curl -H 'Authorization: Bearer ***' prod                    |
            | curl prod?api_key=Zm9vYmFyYmF6cXV4MTIz                                    | Zm9vYmFyYmF6cXV4MTIz                      | curl prod?api_key=***                                       |
            | curl https://deploy:hunter2hunter2@prod.example.com                       | hunter2hunter2                            | curl https://deploy:***@prod.example.com                    |
            | rm -rf data && export OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234          | abcdefghijklmnop1234                      | rm -rf data && export OPENAI_API_KEY=***                    |
            | rm -rf data; git push https://x@github.com ghp_0123456789abcdefghij0123456789abcd | 0123456789abcdefghij0123456789abcd | rm -rf data; git push https://x@github.com ghp_***          |
            | rm -rf data --aws AKIAIOSFODNN7EXAMPLE                                    | IOSFODNN7EXAMPLE                          | rm -rf data --aws AKIA***                                   |
            | rm -rf data --password s3cr3t-pass                                        | s3cr3t-pass                               | rm -rf data --password ***                                  |

    Scenario: The log is private to its owner
        When the agent asks to run "rm -rf data"
        Then the audit log can be read and written by its owner only

    Scenario: 50 hook processes at once give 50 whole lines in one unbroken chain
        When 50 tool calls "rm -rf data" run at the same time
        Then the audit log has 50 lines
        And every line of the audit log is a whole JSON record
        And the audit records are numbered 1 to 50
        When the user runs "cupcake audit verify"
        Then the exit code is 0
        And the output says "Audit trail intact: 50 lines in 1 file, seq 1 to 50."

    Scenario: A line edited by hand is caught by verify
        When the agent asks to run "rm -rf data"
        And the agent asks to run "kubectl apply -f app.yaml"
        And the agent asks to run "black ."
        And someone edits line 2 of the audit log, replacing "ask" with "allow"
        And the user runs "cupcake audit verify"
        Then the exit code is 1
        And the output says "Audit trail broken at audit.log line 2: the line was changed after it was written"

    Scenario: A line removed by hand is caught by verify
        When the agent asks to run "rm -rf data"
        And the agent asks to run "kubectl apply -f app.yaml"
        And the agent asks to run "black ."
        And someone removes line 2 of the audit log
        And the user runs "cupcake audit verify"
        Then the exit code is 1
        And the output says "Audit trail broken at audit.log line 2: seq jumps from 1 (audit.log line 1) to 3: 1 line is missing"

    Scenario: The log rotates at its size limit without losing a line, and the chain goes on
        Given the project policy:
            """
            [settings]
            audit_logging = true
            audit_allows = true
            audit_max_bytes = 2048
            audit_keep = 5
            """
        When the agent runs 12 commands
        Then the audit log was rotated into "audit.log.1"
        And every audit file is at most 2048 bytes
        When the user runs "cupcake audit --json"
        Then the output lists the records numbered 1 to 12
        When the user runs "cupcake audit verify"
        Then the exit code is 0
        And the output says "Audit trail intact: 12 lines"

    Scenario: Only the newest rotations are kept
        Given the project policy:
            """
            [settings]
            audit_logging = true
            audit_allows = true
            audit_max_bytes = 1024
            audit_keep = 2
            """
        When the agent runs 12 commands
        Then the audit files are "audit.log, audit.log.1, audit.log.2"
        When the user runs "cupcake audit verify"
        Then the exit code is 0
        And the output says "older lines were rotated away"

    Scenario: An unwritable audit log never changes the decision, and the user is told
        Given the audit log cannot be written
        When the agent asks to run "rm -rf data"
        Then the tool call is denied with:
            """
            Operation blocked: The data directory holds the only copy of the fixtures
            """
        And the user is told "Cupcake: could not write the audit log .cupcake/audit.log: Is a directory; this event is missing from the trail"

    Scenario Outline: An unwritable audit log leaves an allowed call allowed, whatever the fail_mode
        Given the project policy:
            """
            [settings]
            fail_mode = "<fail_mode>"
            audit_logging = true
            audit_allows = true
            """
        And the audit log cannot be written
        When the agent asks to run "ls -la"
        Then the answer is only a note to the user saying "could not write the audit log"

        Examples:
            | fail_mode |
            | open      |
            | closed    |

    Scenario: Cupcake does not write through a symbolic link planted at the log's place
        Given the audit log is a symbolic link to "elsewhere.log"
        When the agent asks to run "rm -rf data"
        Then the tool call is denied
        And the user is told "could not write the audit log .cupcake/audit.log: it is a symbolic link, and Cupcake does not write through one"
        And no file "elsewhere.log" was created

    Scenario: cupcake audit shows the recent decisions as a table
        When the agent asks to run "rm -rf data"
        And the agent asks to run "kubectl apply -f app.yaml"
        And the user runs "cupcake audit"
        Then the exit code is 0
        And the output has the columns "TIME (UTC)  SESSION  EVENT  TOOL  DECISION  POLICY  INPUT"
        And the output has a row with "8f14e45f  PreToolUse  Bash  block  Never delete the data directory  rm -rf data"
        And the output has a row with "8f14e45f  PreToolUse  Bash  ask  Deploys need a person  kubectl apply -f app.yaml"

    Scenario Outline: Filters pick the records
        Given the audit log holds the runs:
            | session  | command                   |
            | aaaa1111 | rm -rf data               |
            | aaaa1111 | black .                   |
            | bbbb2222 | kubectl apply -f app.yaml |
            | bbbb2222 | rm -rf data               |
            | bbbb2222 | pytest -x                 |
        When the user runs "cupcake audit --json <filters>"
        Then the output lists <count> records
        And every record listed has <field> <value>

        Examples:
            | filters                                      | count | field    | value                             |
            | --decision block                             | 2     | decision | "block"                           |
            | --decision block --decision ask              | 3     | decision | one of "block", "ask"             |
            | --session bbbb                               | 3     | session  | "bbbb2222"                        |
            | --session bbbb --decision block              | 1     | input    | {"command": "rm -rf data"}        |
            | --event PostToolUse                          | 0     | event    | "PostToolUse"                     |
            | --event PreToolUse                           | 5     | event    | "PreToolUse"                      |
            | --policy "Prefer make targets"               | 2     | matched  | containing "Prefer make targets"  |

    Scenario: --since keeps the recent records
        Given an audit record written 3 hours ago
        When the agent asks to run "rm -rf data"
        And the user runs "cupcake audit --json --since 2h"
        Then the output lists 1 record
        When the user runs "cupcake audit --json --since 4h"
        Then the output lists 2 records

    Scenario: A filter that makes no sense is refused with how to write it
        When the user runs "cupcake audit --since yesterday"
        Then the exit code is 2
        And the error says "--since 'yesterday': give an age such as 30m, 2h, 7d or 1w"

    Scenario: --follow prints each new record as it is written, and Ctrl-C ends it cleanly
        When the agent asks to run "rm -rf data"
        And the person follows the audit trail
        And the agent asks to run "kubectl apply -f app.yaml"
        Then the follower prints a row with "Deploys need a person  kubectl apply -f app.yaml"
        When the person presses Ctrl-C
        Then the follower ends with exit code 0 and no stack trace

    Scenario: cupcake audit stats counts decisions per policy and per event
        Given the audit log holds the runs:
            | session  | command                   |
            | aaaa1111 | rm -rf data               |
            | aaaa1111 | black .                   |
            | bbbb2222 | rm -rf data               |
            | bbbb2222 | pytest -x                 |
        When the user runs "cupcake audit stats"
        Then the exit code is 0
        And the output has a row with "Never delete the data directory  2  2  2  0  0"
        And the output has a row with "Prefer make targets  2  0  0  1  1"
        And the output has a row with "PreToolUse  4  2  1  1"
        And the output says "Slowest runs"

    Scenario: With audit logging on and nothing logged yet, cupcake audit says so
        When the user runs "cupcake audit"
        Then the exit code is 1
        And the error says "No audit log at .cupcake/audit.log yet: audit_logging is on, and no run has been logged so far (a run is logged when a policy matched, a command ran or something failed; with audit_allows = true, every run is)."

    Scenario: With audit logging off, cupcake audit says how to turn it on
        Given the project policy:
            """
            [[policy]]
            name = "Never delete the data directory"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "rm\\s+-rf\\s+data" }]
            action = { type = "block_with_feedback", feedback_message = "The data directory holds the only copy of the fixtures" }
            """
        When the user runs "cupcake audit stats"
        Then the exit code is 1
        And the error says "No audit log at .cupcake/audit.log. Turn it on with `audit_logging = true` under [settings] in cupcake.toml."

    Scenario: With .cupcake unwritable, cupcake audit says what is wrong, and the agent's session hears it once per turn
        Given the per-user secret exists, as `cupcake sync` leaves it
        And .cupcake cannot be written
        When the user runs "cupcake audit"
        Then the exit code is 1
        And the error says "No audit log at .cupcake/audit.log: audit_logging is on, but .cupcake/ cannot be written (.cupcake is not a directory; Cupcake does not write through it), so nothing can be logged. Make it a directory this user can write (`cupcake doctor` checks it)."
        When the agent asks to run "rm -rf data"
        Then the tool call is denied with:
            """
            Operation blocked: The data directory holds the only copy of the fixtures
            """
        And the user is told nothing
        When the agent asks to run "ls"
        Then the user is told nothing
        When the user submits the prompt "go on"
        Then the user is told "Cupcake: .cupcake/ cannot be written (.cupcake is not a directory; Cupcake does not write through it): no policy cache, session state or audit trail is kept until a person fixes it (`cupcake doctor` says how). The policies are still enforced."

    Scenario: Rotation settings out of range are refused with file and line
        Given the project policy:
            """
            [settings]
            audit_logging = true
            audit_max_bytes = 100
            audit_keep = 0
            """
        When the agent asks to run "ls"
        Then the answer is only a note to the user saying "cupcake.toml:3: settings: `audit_max_bytes` must be at least 1024, not 100"
        And the answer is only a note to the user saying "cupcake.toml:4: settings: `audit_keep` must be at least 1, not 0"

    Scenario: cupcake audit report writes a page people look at, loading nothing from anywhere
        Given the audit log holds the runs:
            | session  | command                   |
            | aaaa1111 | rm -rf data               |
            | aaaa1111 | black .                   |
            | bbbb2222 | rm -rf data               |
        When the user runs "cupcake audit report -o report.html"
        Then the exit code is 0
        And the output says "Wrote report.html: 3 decisions from 1 project."
        And the page "report.html" has the sections "Decisions over time, Top rules, Per agent, Per project, Slowest hooks"
        And the page "report.html" names "Never delete the data directory"
        And the page "report.html" loads nothing from the network
