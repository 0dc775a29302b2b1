Feature: Session state: what the agent did earlier in the session
    Whenever a policy file exists, Cupcake records every tool use of a session without any policy
    asking for it: after each call Claude Code reports (PostToolUse, or PostToolUseFailure when the
    tool failed), one line is appended to .cupcake/state/<session_id>.json with the time, the tool,
    whether it succeeded and a short summary of its input (the command, the file path; secrets
    masked, never a file's contents). Policies ask about it with state_exists and state_missing,
    so "you must read X before editing Y" becomes a rule; update_state records custom events such
    as "tests_passed". The state of a session goes when the session ends for good.

    Rule: Read before edit (seed 003)

        Background:
            Given the project policy:
                """
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

        Scenario: The edit is blocked until the agent has read the document
            When the agent asks to edit "file.xyz" replacing "old" with "new"
            Then the tool call is denied with:
                """
                Operation blocked: Policy Violation: You must read filexyz.md before editing file.xyz.
                """
            When Claude Code reports that the agent read "filexyz.md"
            Then Cupcake prints nothing
            When the agent asks to edit "file.xyz" replacing "old" with "new"
            Then the tool call is let through

        Scenario Outline: Only a successful read of that very file, in this session, counts
            When Claude Code reports <what happened>
            And the agent asks to edit "file.xyz" replacing "old" with "new"
            Then the tool call is denied

            Examples:
                | what happened                                     |
                | that the agent read "docs/filexyz.md"             |
                | that reading "filexyz.md" failed                  |
                | that the agent read "filexyz.md" in another session |

        Scenario: An agent in a subdirectory reads the same file by another path
            Given the agent works in "docs/" without CLAUDE_PROJECT_DIR
            When Claude Code reports that the agent read "../filexyz.md"
            And the agent asks to edit "../file.xyz" replacing "old" with "new"
            Then the tool call is let through

        Scenario Outline: A session id is never trusted as a path
            Given the session id is <session id>
            When Claude Code reports that the agent read "filexyz.md"
            And the agent asks to edit "file.xyz" replacing "old" with "new"
            Then the tool call is let through
            And every file Cupcake wrote is directly inside .cupcake/state, besides the policy cache

            Examples:
                | session id                 |
                | "../../escaped"            |
                | "$HOME/absolute"           |
                | "a\u0000b"                 |
                | "."                        |
                | a string of 5000 "x"       |

        Scenario: An event without a session_id records nothing, and the user is told
            Given the events carry no session_id
            When Claude Code reports that the agent read "filexyz.md"
            Then the user is told "the event has no session_id, so this tool use was not recorded"
            When the agent asks to edit "file.xyz" replacing "old" with "new"
            Then the tool call is denied
            And the user is told "the event has no session_id, so state conditions see an empty session"

        Scenario: A corrupt line is skipped and reported, never fatal
            Given the session log holds:
                """
                {"timestamp": "2026-01-10T10:00:00.000Z", "tool": "Bash", "success": true, "input": {"command": "ls"}}
                {"timestamp": "2026-01-10T10:00:01.000Z", "tool": "Re
                {"timestamp": "2026-01-10T10:00:02.000Z", "tool": "Read", "success": true, "input": {"file_path": "$PROJECT/filexyz.md"}, "path": "filexyz.md"}
                """
            When the agent asks to edit "file.xyz" replacing "old" with "new"
            Then the tool call is not denied
            And the user is told "skipped a corrupt line in the session state (.cupcake/state/8f14e45f-ceea-467e-9e2e-2a1b3c4d5e6f.json, line 2)"

        Scenario: A log whose last line was cut short still records what comes next
            Given the session log ends in a line cut short
            When Claude Code reports that the agent read "filexyz.md"
            And the agent asks to edit "file.xyz" replacing "old" with "new"
            Then the tool call is not denied
            And the user is told "skipped a corrupt line"

    Scenario: Every tool use is recorded, with secrets masked and no file contents
        Given the project policy:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo\\b" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo from agents" }
            """
        When Claude Code reports that the agent ran "curl -H 'Authorization: Bearer abc123def456ghi789' https://api.example.com"
        Then the session log's last entry is:
            """
            {"tool": "Bash", "success": true, "input": {"command": "curl -H 'Authorization: Bearer ***' https://api.example.com"}}
            """
        When Claude Code reports that the agent wrote "src/main.rs"
        Then the session log's last entry is:
            """
            {"tool": "Write", "success": true, "input": {"file_path": "$PROJECT/src/main.rs"}, "path": "src/main.rs"}
            """
        When Claude Code reports that "STRIPE_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc npm test" failed
        Then the session log's last entry is:
            """
            {"tool": "Bash", "success": false, "input": {"command": "STRIPE_KEY=*** npm test"}, "error": "Exit code 1"}
            """

    Scenario: "Commit only after the tests passed": update_state records a custom event
        Given the project policy:
            """
            [[policy]]
            name = "Remember passing tests"
            hook_event = "PostToolUse"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^npm test" }]
            action = { type = "update_state", event = "tests_passed", data = { suite = "unit" } }

            [[policy]]
            name = "Commit only after the tests passed"
            matcher = "Bash"
            conditions = [
              { type = "command_regex", value = "^git commit" },
              { type = "state_missing", event = "tests_passed" },
            ]
            action = { type = "block_with_feedback", feedback_message = "Run npm test and make it pass before committing" }
            """
        When the agent asks to run "git commit -m 'Add cart'"
        Then the tool call is denied with:
            """
            Operation blocked: Run npm test and make it pass before committing
            """
        When Claude Code reports that "npm test" failed
        And the agent asks to run "git commit -m 'Add cart'"
        Then the tool call is denied
        When Claude Code reports that the agent ran "npm test"
        Then the session log's last entry is:
            """
            {"event": "tests_passed", "data": {"suite": "unit"}, "policy": "Remember passing tests"}
            """
        When the agent asks to run "git commit -m 'Add cart'"
        Then the tool call is let through

    Scenario: A custom event is recorded only when the operation goes ahead
        Given the project policy:
            """
            [[policy]]
            name = "No production deploys"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "--prod" }]
            action = { type = "block_with_feedback", feedback_message = "Production deploys go through CI" }

            [[policy]]
            name = "Remember deploys"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^deploy " }]
            action = { type = "update_state", event = "deploy_started" }
            """
        When the agent asks to run "deploy --prod"
        Then the tool call is denied
        And no custom event "deploy_started" was recorded
        When the agent asks to run "deploy --staging"
        Then Cupcake prints nothing
        And the session log's last entry is:
            """
            {"event": "deploy_started", "policy": "Remember deploys"}
            """

    Scenario Outline: A command condition counts the program that ran, not a word in the text
        `command` describes a command as it runs, from its program on: `pytest` is satisfied by
        `pytest -q`, by `python -m pytest` or `uv run pytest`, and after a `cd`; not by a command
        that only mentions pytest, and not by a run that failed.
        Given the project policy:
            """
            [[policy]]
            name = "Test before committing"
            matcher = "Bash"
            conditions = [
              { type = "command_regex", value = "^git commit" },
              { type = "state_missing", tool = "Bash", command = "pytest" }
            ]
            action = { type = "block_with_feedback", feedback_message = "Run the tests (pytest) before committing" }
            """
        When Claude Code reports <what happened>
        And the agent asks to run "git commit -m 'Add cart'"
        Then the tool call is <outcome>

        Examples:
            | what happened                                            | outcome      |
            | that the agent ran "pytest -q"                           | let through  |
            | that the agent ran "cd src && python3 -m pytest tests/"  | let through  |
            | that the agent ran "uv run pytest"                       | let through  |
            | that the agent ran "echo pytest"                         | denied       |
            | that the agent ran "grep -rn pytest setup.cfg"           | denied       |
            | that the agent ran "pip install pytest"                  | denied       |
            | that "pytest -q" failed                                  | denied       |

    Rule: count and within: how often, and how recently

        Background:
            Given the project policy:
                """
                [[policy]]
                name = "Stop hammering the tests"
                matcher = "Bash"
                conditions = [
                  { type = "command_regex", value = "^npm test" },
                  { type = "state_exists", tool = "Bash", command = "^npm test", success = false, count = 3, within = "10m" }
                ]
                action = { type = "block_with_feedback", feedback_message = "npm test failed 3 times in 10 minutes: read the failures and fix the code first" }
                """

        Scenario: The third failure in ten minutes stops the next run
            When Claude Code reports that "npm test" failed
            And Claude Code reports that "npm test" failed
            And the agent asks to run "npm test"
            Then the tool call is let through
            When Claude Code reports that "npm test" failed
            And the agent asks to run "npm test"
            Then the tool call is denied with:
                """
                Operation blocked: npm test failed 3 times in 10 minutes: read the failures and fix the code first
                """

        Scenario: Failures older than the window do not count
            Given the session log holds 3 failed runs of "npm test" from 11 minutes ago
            When Claude Code reports that "npm test" failed
            And the agent asks to run "npm test"
            Then the tool call is let through

    Rule: The state of a session goes with it

        Background:
            Given the project policy:
                """
                [settings]
                state_ttl_days = 2

                [[policy]]
                name = "No sudo"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^sudo\\b" }]
                action = { type = "block_with_feedback", feedback_message = "No sudo from agents" }
                """

        Scenario Outline: A session that ends for good leaves no state; one that may resume keeps it
            When Claude Code reports that the agent read "README.md"
            And the session ends with the reason "<reason>"
            Then the session's state is <outcome>

            Examples:
                | reason            | outcome |
                | clear             | removed |
                | logout            | removed |
                | resume            | kept    |
                | prompt_input_exit | kept    |
                | other             | kept    |

        Scenario: State untouched for longer than state_ttl_days is removed, at most one sweep a day
            Given the state of the session "old-session" was last touched 3 days ago
            And the state of the session "recent-session" was last touched 1 days ago
            And the file ".cupcake/notes.json" was last touched 30 days ago
            When Claude Code reports that the agent read "README.md"
            Then the state of the session "old-session" is removed
            And the state of the session "recent-session" is kept
            And the file ".cupcake/notes.json" is kept
            Given the state of the session "another-old-session" was last touched 3 days ago
            When Claude Code reports that the agent read "README.md"
            Then the state of the session "another-old-session" is kept

        Scenario: A link in place of .cupcake/state is refused, and nothing is written through it
            Given .cupcake/state is a link to a directory outside the project
            When Claude Code reports that the agent read "README.md"
            Then the user is told ".cupcake/state is not a plain directory"
            And the directory outside the project is still empty

    Scenario: A run whose policies need no state does not read the state file
        Given the project policy:
            """
            [[policy]]
            name = "Read the notes before editing them"
            matcher = "Edit|Write"
            conditions = [
              { type = "filepath_regex", value = "^NOTES\\.md$" },
              { type = "state_missing", tool = "Read", path = "NOTES.md" }
            ]
            action = { type = "block_with_feedback", feedback_message = "Read NOTES.md first" }

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo\\b" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo from agents" }
            """
        And the session log holds:
            """
            this line is not JSON
            """
        When the agent asks to run "ls"
        Then Cupcake prints nothing
        When the agent asks to write "other.md" with:
            """
            # Other
            """
        Then the user is told "skipped a corrupt line"

    Scenario: 50 tool calls reported at once lose no line and corrupt none
        Given the project policy:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo\\b" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo from agents" }
            """
        When Claude Code reports 50 Bash commands at once
        Then the session log holds 50 whole entries, one for each command

    Scenario Outline: Mistakes in state conditions and update_state are named, with file and line
        Given the project policy:
            """
            [[policy]]
            name = "Read first"
            matcher = "Bash"
            conditions = [<condition>]
            action = <action>
            """
        When the agent asks to run "ls"
        Then the answer is only a note to the user saying "cupcake.toml:<line>: policy \"Read first\": <message>"

        Examples:
            | line | condition                                                  | action                                          | message                                                                              |
            | 4    | { type = "state_missing", path = "a.md" }                  | { type = "approve" }                            | condition state_missing: give exactly one of `tool` (a tool use, e.g. \"Read\") or `event` |
            | 4    | { type = "state_exists", tool = "Read", within = "ten minutes" } | { type = "approve" }                      | condition state_exists: `within` must be a duration such as \"30s\", \"10m\", \"2h\" or \"1d\", got 'ten minutes' |
            | 4    | { type = "state_exists", tool = "Read", count = 0 }        | { type = "approve" }                            | condition state_exists: `count` must be at least 1, not 0                             |
            | 4    | { type = "state_exists", event = "deployed", path = "x" }  | { type = "approve" }                            | condition state_exists: `path` describes a tool use; a custom event has none          |
            | 4    | { type = "state_exists", tool = "Read", file = "a.md" }    | { type = "approve" }                            | condition state_exists: unknown key `file`                                            |
            | 5    | { type = "command_regex", value = "x" }                    | { type = "update_state" }                       | action update_state: missing required key `event`                                     |
            | 5    | { type = "command_regex", value = "x" }                    | { type = "update_state", event = "x", data = { at = 2026-01-10 } } | action update_state: `data.at` is a date; write it as a string |
