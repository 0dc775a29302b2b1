Feature: Hooking Cupcake into an agent with cupcake sync
    `cupcake sync` writes Cupcake's hook entries into an agent's settings (Claude Code's by default,
    any other with --agent: features/agent_*.feature): one per event, each calling
    `cupcake run --event <Event>`. It edits the file in place: every other key, hook and matcher group
    keeps its exact text, in the file's own indentation, and running it again changes nothing. Entries
    an older Cupcake wrote are replaced where they stand, never duplicated. A settings file that is not
    valid JSON is never overwritten. Writes are atomic, and the previous file is kept as <name>.bak.

    The scope says which file: project (.claude/settings.json, the default, shared with the team, so
    it names `cupcake` and each teammate's PATH finds it, and holds no path of this machine), local
    (.claude/settings.local.json, only you) or user (~/.claude/settings.json, every project); local and
    user write this installation's absolute path. "$CUPCAKE" below stands for that path.

    Where a call can be stopped (before a tool runs, a permission, a prompt) the command blocks when
    Cupcake cannot even start, with the reason (exit 2): a shell's "command not found" (exit 127) is a
    non-blocking error to every agent, and would let every call through unchecked.

    Scenario: Sync into an empty project
        When the user runs "cupcake sync"
        Then the exit code is 0
        And ".claude/settings.json" has Cupcake's hooks:
            | event              | matcher | command                                    | timeout | if cupcake cannot start |
            | PreToolUse         | ""      | cupcake run --event PreToolUse             | 600     | blocks                  |
            | PostToolUse        | ""      | cupcake run --event PostToolUse            | 600     | a hook error            |
            | Notification       | ""      | cupcake run --event Notification           | 600     | a hook error            |
            | Stop               | none    | cupcake run --event Stop                   | 600     | a hook error            |
            | SubagentStop       | ""      | cupcake run --event SubagentStop           | 600     | a hook error            |
            | PreCompact         | ""      | cupcake run --event PreCompact             | 600     | a hook error            |
            | UserPromptSubmit   | none    | cupcake run --event UserPromptSubmit       | 600     | blocks                  |
            | SessionStart       | ""      | cupcake run --event SessionStart           | 600     | a hook error            |
            | SessionEnd         | ""      | cupcake run --event SessionEnd             | 600     | a hook error            |
            | PostToolUseFailure | ""      | cupcake run --event PostToolUseFailure     | 600     | a hook error            |
            | PermissionRequest  | ""      | cupcake run --event PermissionRequest      | 600     | blocks                  |
        And ".claude/settings.json" holds no path of this machine
        And ".gitignore" is:
            """
            .cupcake/
            .claude/settings.local.json*
            .claude/.cupcake-sync.*
            .claude/settings.json.bak
            """
        And the output says "Wrote Cupcake's Claude Code hooks to .claude/settings.json: 11 events, `cupcake run --event <event>`, timeout 600 s."

    Scenario: The hook timeout comes from [settings] hook_timeout_seconds
        Given the project policy:
            """
            [settings]
            hook_timeout_seconds = 120
            """
        When the user runs "cupcake sync"
        Then ".claude/settings.json" calls "cupcake run --event <Event>" on every event, with timeout 120

    Scenario: Sync into settings with the user's own hooks and other keys
        The user's hooks, permissions and formatting (four-space indentation, one-line arrays, a blank
        line) stay exactly as they were: the new file is the old one with Cupcake's entries inserted.
        Given the file ".claude/settings.json":
            """
            {
                "model": "opus",
                "permissions": {"allow": ["Bash(npm test)", "Read"], "deny": []},
                "hooks": {
                    "PreToolUse": [
                        {
                            "matcher": "Bash",
                            "hooks": [ { "type": "command", "command": "./scripts/audit-bash.sh" } ]
                        }
                    ],

                    "Stop": [{"hooks": [{"type": "command", "command": "notify-send 'done'"}]}],
                    "Setup": [{"matcher": "init", "hooks": [{"type": "command", "command": "make setup"}]}]
                },
                "env": {"GREETING": "h\u00e9llo"}
            }
            """
        When the user runs "cupcake sync"
        Then ".claude/settings.json" calls "cupcake run --event <Event>" on every event, with timeout 600
        And ".claude/settings.json" keeps the original text, only added to
        And ".claude/settings.json" without Cupcake's hooks holds the same settings as before
        And ".claude/settings.json" is indented with 4 spaces
        And ".claude/settings.json.bak" is the original

    Scenario: A tab-indented file gets tab-indented entries
        Given the file ".claude/settings.json":
            """
            {
            	"model": "opus"
            }
            """
        When the user runs "cupcake sync"
        Then ".claude/settings.json" is indented with tabs
        And ".claude/settings.json" keeps the original text, only added to

    Scenario: Syncing twice changes nothing
        Given the file ".claude/settings.json":
            """
            {
              "hooks": {
                "PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier --check"}]}]
              }
            }
            """
        When the user runs "cupcake sync"
        And the user runs "cupcake sync" again
        Then the exit code is 0
        And ".claude/settings.json" was not rewritten
        And ".gitignore" was not rewritten
        And the output says ".claude/settings.json: Cupcake's Claude Code hooks are already up to date"

    Scenario: An older Cupcake's entries are replaced, not duplicated
        Seed 001's entries (timeout 60, matcher "" even on Stop), one that calls cupcake by its path,
        a closed-mode one, and a duplicate: each event ends with exactly one Cupcake entry, and the
        user's own hook in a shared group stays.
        Given the file ".claude/settings.json":
            """
            {
              "hooks": {
                "PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "cupcake run --event PreToolUse", "timeout": 60}]}],
                "PostToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "/usr/local/bin/cupcake run --event PostToolUse", "timeout": 60}]}],
                "Stop": [{"matcher": "", "hooks": [
                  {"type": "command", "command": "cupcake run --event Stop || exit 2", "timeout": 60},
                  {"type": "command", "command": "say finished"}
                ]}],
                "SubagentStop": [
                  {"matcher": "", "hooks": [{"type": "command", "command": "cupcake run --event SubagentStop", "timeout": 60}]},
                  {"matcher": "", "hooks": [{"type": "command", "command": "cupcake run --event SubagentStop", "timeout": 60}]}
                ]
              }
            }
            """
        When the user runs "cupcake sync"
        Then ".claude/settings.json" calls "cupcake run --event <Event>" on every event, with timeout 600
        And ".claude/settings.json" has the user's hook "say finished" on "Stop"

    Scenario: A Cupcake entry that only sees some tools is replaced by one that sees every call
        Given the file ".claude/settings.json":
            """
            {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cupcake run --event PreToolUse"}]}]}}
            """
        When the user runs "cupcake sync"
        Then ".claude/settings.json" calls "cupcake run --event <Event>" on every event, with timeout 600
        And ".claude/settings.json" is written on one line

    Scenario: Uninstall removes only Cupcake's entries
        Given the file ".claude/settings.json":
            """
            {
              "permissions": {"allow": ["Read"]},
              "hooks": {
                "PreToolUse": [
                  {"matcher": "Bash", "hooks": [{"type": "command", "command": "./scripts/audit-bash.sh"}]}
                ]
              }
            }
            """
        When the user runs "cupcake sync"
        And the user runs "cupcake sync --uninstall"
        Then the exit code is 0
        And ".claude/settings.json" is the original
        And the output says "Removed 11 Cupcake hook entries for Claude Code from .claude/settings.json"

    Scenario: Uninstall after syncing into an empty project leaves an empty settings object
        When the user runs "cupcake sync"
        And the user runs "cupcake sync --uninstall"
        Then ".claude/settings.json" is:
            """
            {}
            """

    Scenario Outline: A settings file that is not valid JSON is never overwritten
        Given the file ".claude/settings.json":
            """
            <content>
            """
        When the user runs "cupcake sync"
        Then the exit code is 1
        And the output says "<message>"
        And the output says "Cupcake never overwrites a file it cannot read"
        And ".claude/settings.json" is the original
        And ".claude/settings.json.bak" does not exist
        And no temporary file is left in ".claude"
        And no stack trace is shown

        Examples:
            | content                                                         | message                                                                                        |
            | {"model": "opus", // my model                                   | .claude/settings.json: not valid JSON at line 1, column 19: Expecting property name enclosed in double quotes |
            | {"permissions": {"allow": ["Read",]}}                           | .claude/settings.json: not valid JSON at line 1, column 35: Expecting value                    |
            | {"hooks": {"PreToolUse": [{"matcher": "", "hooks": [             | .claude/settings.json: not valid JSON at line 2, column 1: Expecting value                     |

    Scenario: An empty settings file (a truncated write) is not overwritten either
        Given the file ".claude/settings.json" is empty
        When the user runs "cupcake sync"
        Then the exit code is 1
        And the output says ".claude/settings.json: the file is empty (a truncated write?)"
        And ".claude/settings.json" is the original

    Rule: The project file names cupcake; local and user use this installation's path

        Background:
            Given cupcake is on the PATH

        Scenario: The default scope is the project's shared file, and it names cupcake
            When the user runs "cupcake sync"
            Then ".claude/settings.json" calls "cupcake run --event <Event>" on every event, with timeout 600
            And the user is not warned
            And ".claude/settings.json" holds no path of this machine

        Scenario Outline: Local and user scope write the absolute path of this installation
            When the user runs "cupcake sync --scope <scope>"
            Then "<file>" calls "$CUPCAKE run --event <Event>" on every event, with timeout 600
            And "<other>" does not exist

            Examples:
                | scope | file                         | other                 |
                | local | .claude/settings.local.json  | .claude/settings.json |
                | user  | ~/.claude/settings.json      | .claude/settings.json |

        Scenario: --command overrides the scope's choice
            When the user runs "cupcake sync --scope local --command /opt/tools/cupcake"
            Then ".claude/settings.local.json" calls "/opt/tools/cupcake run --event <Event>" on every event, with timeout 600
            And the user is warned "/opt/tools/cupcake is not an executable file"

        Scenario: The user scope reads only the user's policy file: its hooks run in every project
            Given the project policy:
                """
                [settings]
                fail_mode = "closed"
                hook_timeout_seconds = 30
                """
            When the user runs "cupcake sync --scope user"
            Then "~/.claude/settings.json" calls "$CUPCAKE run --event <Event>" on every event, with timeout 600

    Scenario: Sync warns when `cupcake` is not on the PATH
        Given cupcake is not on the PATH
        When the user runs "cupcake sync"
        Then the exit code is 0
        And the user is warned "`cupcake` is not on this PATH, so Claude Code started from here will not find it"

    Scenario: Sync warns when `cupcake` on the PATH is another installation
        Given another program named cupcake comes first on the PATH
        When the user runs "cupcake sync"
        Then the user is warned "the hooks will run that one"

    Rule: With fail_mode "closed", a missing or crashing cupcake blocks too

        Scenario: Closed mode's commands carry the mode, and block on any failure where a call can be stopped
            `--fail-closed` tells cupcake the mode before it imports anything, so a Cupcake that
            cannot import its own modules blocks too.
            Given the project policy:
                """
                [settings]
                fail_mode = "closed"
                """
            When the user runs "cupcake sync"
            Then ".claude/settings.json" calls "cupcake run --event <Event> --fail-closed" on every event, with timeout 600

        Scenario: Back to open mode, the suffix goes
            Given the project policy:
                """
                [settings]
                fail_mode = "closed"
                """
            When the user runs "cupcake sync"
            And the project policy file is changed to say fail_mode "open"
            And the user runs "cupcake sync" again
            Then ".claude/settings.json" calls "cupcake run --event <Event>" on every event, with timeout 600

        Scenario: A policy file that is not TOML stops sync: its fail_mode cannot be known
            Given the project policy:
                """
                [settings
                fail_mode = "closed"
                """
            When the user runs "cupcake sync"
            Then the exit code is 1
            And the output says "cupcake.toml:1: not valid TOML"
            And ".claude/settings.json" does not exist

    Scenario: A broken policy does not stop sync, but the user is warned
        Given the project policy:
            """
            [[policy]]
            name = "Typo"
            action = { type = "blok", feedback_message = "No" }
            """
        When the user runs "cupcake sync"
        Then the exit code is 0
        And the user is warned "the policy files have 1 error(s)"

    Rule: An agent that starts without Cupcake is blocked, never let through

        The project's hook file names `cupcake`, which each teammate's PATH must find. When the agent
        starts with another PATH (from the desktop, a new terminal, without the virtual environment),
        every call it could stop is blocked with the reason, and `cupcake doctor` says what a fresh
        login shell finds.

        Scenario Outline: The <agent> agent, started without cupcake on its PATH, is blocked with the reason
            Given cupcake is on the PATH
            And the project policy:
                """
                [[policy]]
                name = "No force pushes"
                conditions = [{ type = "command_regex", value = "git push.*--force" }]
                action = { type = "block_with_feedback", feedback_message = "No force pushes" }
                """
            And the user runs "cupcake sync --agent <agent>"
            When the <agent> agent, started without cupcake on its PATH, asks to run "ls"
            Then the hook blocks the call (exit 2) and says "this hook could not run cupcake (exit 127"
            And the hook says "Install Cupcake where every shell finds it (with pipx or uv tool)"

            Examples:
                | agent   |
                | claude  |
                | codex   |
                | gemini  |
                | copilot |
                | droid   |
                | cursor  |

        Scenario: With cupcake on its PATH, the same hook answers as Cupcake
            Given cupcake is on the PATH
            And the project policy:
                """
                [[policy]]
                name = "No force pushes"
                conditions = [{ type = "command_regex", value = "git push.*--force" }]
                action = { type = "block_with_feedback", feedback_message = "No force pushes" }
                """
            And the user runs "cupcake sync"
            When the claude agent, started with cupcake on its PATH, asks to run "git push --force"
            Then the call is blocked and the model is shown "No force pushes"

    Rule: .cupcake/ is kept out of version control

        Scenario: An existing .gitignore gets the lines once, after its last line
            With them: the personal settings file, and what sync leaves beside the shared one (its backup,
            the record of the protections it added), so `git add .claude` commits only the shared file.
            Given the file ".gitignore" with no newline at the end:
                """
                node_modules/
                dist/
                """
            When the user runs "cupcake sync"
            And the user runs "cupcake sync" again
            Then ".gitignore" is:
                """
                node_modules/
                dist/
                .cupcake/
                .claude/settings.local.json*
                .claude/.cupcake-sync.*
                .claude/settings.json.bak
                """

        Scenario: A .gitignore that already ignores everything sync leaves is left alone
            Given the file ".gitignore":
                """
                /.cupcake
                .claude/settings.local.json*
                .claude/.cupcake-sync.*
                .claude/settings.json.bak
                """
            When the user runs "cupcake sync"
            Then ".gitignore" is the original

    Scenario: --dry-run prints the diff and writes nothing
        Given the file ".claude/settings.json":
            """
            {"model": "opus"}
            """
        When the user runs "cupcake sync --dry-run"
        Then the exit code is 0
        And the output says "--- .claude/settings.json"
        And the output says "+++ .claude/settings.json"
        And the output says "-{"model": "opus"}"
        And the output says "+{"model": "opus", "hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "cupcake run --event PreToolUse || {"
        And the output says "+.cupcake/"
        And ".claude/settings.json" is the original
        And ".gitignore" does not exist

    Scenario: A symlinked settings file stays a symlink; the file it points at is updated
        Given "~/.claude/settings.json" is a symlink to "~/dotfiles/claude-settings.json" holding:
            """
            {"theme": "dark"}
            """
        When the user runs "cupcake sync --scope user"
        Then "~/.claude/settings.json" is still a symlink
        And "~/dotfiles/claude-settings.json" calls "$CUPCAKE run --event <Event>" on every event, with timeout 600
