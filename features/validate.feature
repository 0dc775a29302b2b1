Feature: Checking policy files with cupcake validate
    `cupcake validate` loads the policy files with the very loader `cupcake run` uses, so the two
    never disagree, and reports every problem at once instead of stopping at the first. Each
    problem names the file, the line (of the offending key or condition where known, else of its
    [[policy]]), the policy and what is wrong, with a suggestion where one is obvious.

    An error makes the whole load fail: `cupcake run` then enforces none of the policies (see
    fail_mode). A warning (a matcher on an event that has no tool, a block that an earlier approve
    always pre-empts) never changes what `cupcake run` does. The exit code is 1 on errors and 0
    on warnings only; `--strict` fails on warnings too. `--json` is for tools.

    Without arguments it checks the project's cupcake.toml and the user's ~/.claude/cupcake.toml
    together, as one list. Files named on the command line are each checked on their own, as a
    project file would be.

    Scenario: Seed 000, example 1 (security and style) is valid
        Given the project policy:
            """
            # Triggers on console.log (hard block)
            [[policy]]
            name = "No console.log in production"
            action = { type = "block_with_feedback", feedback_message = "Remove console statements" }

            # Triggers on <button> (soft feedback)
            [[policy]]
            name = "Use design system"
            action = { type = "provide_feedback", message = "Use <Button> component" }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            ok: 2 policies in cupcake.toml
            """
        And the exit code is 0

    Scenario: Seed 000, example 2 (multiple soft violations) is valid
        Given the project policy:
            """
            [[policy]]
            name = "Component naming"
            action = { type = "provide_feedback", message = "Component should be PascalCase" }

            [[policy]]
            name = "Import ordering"
            action = { type = "provide_feedback", message = "Group imports by type" }

            [[policy]]
            name = "File size"
            action = { type = "provide_feedback", message = "File exceeds 500 lines" }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            ok: 3 policies in cupcake.toml
            """
        And the exit code is 0

    Scenario: Seed 000, example 3 (an action table spread over several lines) is valid
        Given the project policy:
            """
            [[policy]]
            name = "Prevent secret exposure"
            conditions = [{ type = "file_content_regex", value = "api_key\\s*=\\s*[\"']\\w+" }]
            action = {
              type = "block_with_feedback",
              feedback_message = "CRITICAL: Exposed API key detected! Remove immediately."
            }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            ok: 1 policy in cupcake.toml
            """
        And the exit code is 0

    Scenario: Seed 003, question 4 (run the tests after code changes) is valid
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
        When the user runs "cupcake validate"
        Then the output is:
            """
            ok: 1 policy in cupcake.toml
            """
        And the exit code is 0

    Scenario: Seed 003, question 1 (read before editing, a state condition) is valid
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
        When the user runs "cupcake validate"
        Then the output is:
            """
            ok: 1 policy in cupcake.toml
            """
        And the exit code is 0

    Scenario: Five different mistakes are all reported, each at its line
        Given the project policy:
            """
            [[policy]]
            name = "No force pushes"
            matcher = "Bash"
            conditions = [
                { type = "command_regex", value = "^git push" },
                { type = "command_regex", value = "--force(" },
            ]
            action = { type = "block_with_feedback", feedback_message = "Force pushes rewrite shared history" }

            [[policy]]
            name = "Keep the lockfile"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "rm .*package-lock" }]
            action = { type = "blok", feedback_message = "The lockfile is committed on purpose" }

            [[policy]]
            name = "Remind about the changelog"
            hook_event = "PostToolUs"
            action = { type = "provide_feedback", message = "Add a line to CHANGELOG.md" }

            [[policy]]
            name = "Let the agent stop"
            hook_event = "Stop"
            action = { type = "approve" }

            [[policy]]
            matcher = "Write"
            action = { type = "provide_feedback", message = "Use the design system" }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            cupcake.toml:6: error: policy "No force pushes": invalid regex in command_regex: missing ), unterminated subpattern at position 7 (pattern '--force(')
            cupcake.toml:14: error: policy "Keep the lockfile": unknown action type "blok" (did you mean "block_with_feedback"?)
            cupcake.toml:18: error: policy "Remind about the changelog": unknown hook_event "PostToolUs" (did you mean "PostToolUse"?)
            cupcake.toml:24: error: policy "Let the agent stop": "approve" cannot be honoured on Stop: Claude Code has no such answer for that event (it works on PreToolUse and PermissionRequest)
            cupcake.toml:26: error: [[policy]] #5 (no name): missing required key `name`: every policy needs a name, unique across all policy files
            5 errors, 0 warnings
            """
        And the exit code is 1

    Scenario: Wrong types and unknown keys are said in plain words, with the key's line
        Given the project policy:
            """
            [settings]
            fail_mode = "opn"
            hook_timeout_seconds = "ten"
            audit_allow = true

            [[policy]]
            name = "Design system"
            matcher = ["Write", "Edit"]
            conditions = [
                { type = "file_content_regex", value = "<button" },
                { type = "filepath_regx", value = "\\.tsx$" },
            ]
            action = {
                type = "provide_feedback",
                massage = "Use <Button> from @/ui",
            }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            cupcake.toml:2: error: settings: `fail_mode` must be "open" or "closed", not a string ("opn")
            cupcake.toml:3: error: settings: `hook_timeout_seconds` must be a number, not a string ("ten")
            cupcake.toml:4: error: settings: unknown key `audit_allow` (did you mean "audit_allows"?)
            cupcake.toml:8: error: policy "Design system": `matcher` must be a string, not an array
            cupcake.toml:11: error: policy "Design system": unknown condition type "filepath_regx" (did you mean "filepath_regex"?)
            cupcake.toml:13: error: policy "Design system": action provide_feedback: missing required key `message`
            cupcake.toml:15: error: policy "Design system": action provide_feedback: unknown key `massage` (did you mean "message"?)
            7 errors, 0 warnings
            """
        And the exit code is 1

    Scenario: A file that is not TOML at all
        Given the project policy:
            """
            [[policy]
            name = "broken header"
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            cupcake.toml:1: error: not valid TOML: Expected ']]' at the end of an array declaration
            1 error, 0 warnings
            """
        And the exit code is 1

    Scenario: Warnings alone pass, unless --strict
        Given the project policy:
            """
            [[policy]]
            name = "Trust the test runner"
            matcher = "Bash|Read"
            action = { type = "approve", reason = "tests are safe" }

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }

            [[policy]]
            name = "Say goodbye"
            hook_event = "SessionEnd"
            matcher = "Bash"
            action = { type = "provide_feedback", message = "Summarise what you changed" }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            cupcake.toml:6: warning: policy "No sudo": never reached: "Trust the test runner" (cupcake.toml:1) approves these calls first
            cupcake.toml:15: warning: policy "Say goodbye": `matcher` has no effect: "SessionEnd" has no tool (the policy applies to every SessionEnd)
            0 errors, 2 warnings
            """
        And the exit code is 0
        When the user runs "cupcake validate --strict"
        Then the exit code is 1

    Scenario: --json gives tools a stable schema
        Given the project policy:
            """
            [[policy]]
            name = "Keep the lockfile"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "rm .*package-lock" }]
            action = { type = "blok", feedback_message = "The lockfile is committed on purpose" }

            [[policy]]
            hook_event = "Stop"
            matcher = "Bash"
            action = { type = "provide_feedback", message = "Run the linter before you stop" }
            """
        When the user runs "cupcake validate --json"
        Then the output is the JSON:
            """
            {
              "version": 1,
              "ok": false,
              "errors": 2,
              "warnings": 1,
              "policies": 0,
              "files": ["cupcake.toml"],
              "problems": [
                {"severity": "error", "file": "cupcake.toml", "line": 5, "policy": "Keep the lockfile", "index": 1,
                 "message": "unknown action type \"blok\" (did you mean \"block_with_feedback\"?)",
                 "suggestion": "block_with_feedback"},
                {"severity": "error", "file": "cupcake.toml", "line": 7, "policy": null, "index": 2,
                 "message": "missing required key `name`: every policy needs a name, unique across all policy files",
                 "suggestion": null},
                {"severity": "warning", "file": "cupcake.toml", "line": 9, "policy": null, "index": 2,
                 "message": "`matcher` has no effect: \"Stop\" has no tool (the policy applies to every Stop)",
                 "suggestion": null}
              ]
            }
            """
        And the exit code is 1

    Scenario: The project and the user file are checked together, as run loads them
        Given the project policy:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo in this project" }
            """
        And the user policy:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo anywhere" }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            ~/.claude/cupcake.toml:2: error: policy "No sudo": duplicate policy name: also defined at cupcake.toml:1 (names must be unique across all policy files, imported ones included)
            1 error, 0 warnings
            """
        And the exit code is 1

    Scenario: Named files are each checked on their own, as a project file
        Given the file "drafts/strict.toml":
            """
            [settings]
            fail_mode = "closed"

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        And the file "drafts/relaxed.toml":
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "provide_feedback", message = "Prefer not to use sudo" }
            """
        When the user runs "cupcake validate drafts/strict.toml drafts/relaxed.toml"
        Then the output is:
            """
            ok: 2 policies in drafts/strict.toml, drafts/relaxed.toml
            """
        And the exit code is 0

    Scenario: Nothing to check
        Given no policy file
        When the user runs "cupcake validate"
        Then the output is:
            """
            cupcake validate: no policy file found (cupcake.toml at the project root, or ~/.claude/cupcake.toml)
            """
        And the exit code is 2
        When the user runs "cupcake validate missing.toml"
        Then the output is:
            """
            cupcake validate: no such file: missing.toml
            """
        And the exit code is 2

    Scenario: A policy that asks an agent for what it cannot do is a warning, for the agents it applies to (its agents, else the agents hooked in here, else Claude Code)
        Given the project policy:
            """
            [[policy]]
            name = "Remind about the style guide"
            agents = ["gemini", "claude"]
            matcher = "Write|Edit"
            action = { type = "inject_context", text = "Follow docs/style.md" }

            [[policy]]
            name = "Trust the linter"
            agents = ["codex"]
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^ruff check" }]
            action = { type = "approve" }
            """
        When the user runs "cupcake validate"
        Then the output is:
            """
            cupcake.toml:1: warning: policy "Remind about the style guide": Gemini CLI cannot add context on PreToolUse (see the capability tables: `python -m cupcake.agents.table`); there this policy's context is not honoured
            cupcake.toml:7: warning: policy "Trust the linter": Codex cannot approve on PreToolUse (see the capability tables: `python -m cupcake.agents.table`); there this policy's approve is not honoured
            0 errors, 2 warnings
            """
        And the exit code is 0
