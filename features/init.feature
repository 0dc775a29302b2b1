Feature: cupcake init turns the rules in CLAUDE.md into policies that load
    `cupcake init` finds every CLAUDE.md that holds rules for the project, asks an agent (headless
    Claude Code by default) to translate them into cupcake.toml, checks what the agent wrote with the
    loader `cupcake run` uses, and sends every problem back to the same agent until the policies
    load. The user then sees one line per policy and the diff, and nothing is saved without a yes.

    In these scenarios a scripted stand-in agent ($STANDIN) does the translating: at each attempt it
    writes the file the scenario gives it, and keeps the prompt it was sent.

    Rule: Rules are found here, above, below, in the user's own CLAUDE.md, and through imports

        Scenario: Every CLAUDE.md is found, and the folders nobody edits are skipped
            Given the project is a git repository that ignores "build/"
            And the file "CLAUDE.md":
                """
                Never run rm -rf.
                """
            And the file "../CLAUDE.md":
                """
                Prefer small commits.
                """
            And the file "src/api/CLAUDE.md":
                """
                API handlers validate their input.
                """
            And the file "~/.claude/CLAUDE.md":
                """
                Never use sudo.
                """
            And the file "node_modules/left-pad/CLAUDE.md":
                """
                A dependency's own rules.
                """
            And the file "build/CLAUDE.md":
                """
                A copy made by the build.
                """
            And a virtualenv in ".venv" holding a CLAUDE.md
            When the user runs "cupcake init --list"
            Then the exit code is 0
            And the files found are:
                | scope   | file                | found                             |
                | user    | ~/.claude/CLAUDE.md | your own rules, for every project |
                | project | CLAUDE.md           | the current directory             |
                | project | ../CLAUDE.md        | a directory above this one        |
                | project | src/api/CLAUDE.md   | a subdirectory                    |

        Scenario: Imports are followed from the importing file's folder, five levels deep and no deeper
            Given the file "CLAUDE.md":
                """
                Style rules: @docs/one.md
                """
            And a chain of imports "docs/one.md" → "docs/two.md" → "docs/three.md" → "docs/four.md" → "docs/five.md" → "docs/six.md"
            When the user runs "cupcake init --list"
            Then the files found are:
                | scope   | file          | found                         |
                | project | CLAUDE.md     | the current directory         |
                | project | docs/one.md   | imported by CLAUDE.md:1       |
                | project | docs/two.md   | imported by docs/one.md:1     |
                | project | docs/three.md | imported by docs/two.md:1     |
                | project | docs/four.md  | imported by docs/three.md:1   |
                | project | docs/five.md  | imported by docs/four.md:1    |
            And the output says "docs/five.md:1: @six.md: not followed: imports go at most 5 levels deep"

        Scenario: An import cycle is reported and each file is read once; a missing import is reported
            Given the file "CLAUDE.md":
                """
                See @docs/a.md and @docs/missing.md.
                An @ in code is not an import: `@docs/b.md`
                """
            And the file "docs/a.md":
                """
                A imports @b.md
                """
            And the file "docs/b.md":
                """
                B imports @a.md again
                """
            When the user runs "cupcake init --list"
            Then the files found are:
                | scope   | file      | found                   |
                | project | CLAUDE.md | the current directory   |
                | project | docs/a.md | imported by CLAUDE.md:1 |
                | project | docs/b.md | imported by docs/a.md:1 |
            And the output says "docs/b.md:1: @a.md: import cycle (docs/a.md → docs/b.md → docs/a.md); not followed again"
            And the output says "CLAUDE.md:1: @docs/missing.md: no such file (not imported)"

        Scenario: The agent is given every rule with its source, the policy language and the two passes
            Given the file "CLAUDE.md":
                """
                Never push to main.
                """
            And the file "~/.claude/CLAUDE.md":
                """
                Never use sudo.
                """
            And the stand-in agent writes at attempt 1:
                """
                policy_schema_version = "1.0"
                """
            And the stand-in agent writes into the user file at attempt 1:
                """
                policy_schema_version = "1.0"
                """
            When the user runs "cupcake init --agent-command $STANDIN" and answers "n"
            Then the stand-in agent's prompt 1 included:
                """
                ### 2. CLAUDE.md (project rules; the current directory)
                """
            And the stand-in agent's prompt 1 included "Never push to main."
            And the stand-in agent's prompt 1 included "### 1. ~/.claude/CLAUDE.md (user rules; your own rules, for every project)"
            And the stand-in agent's prompt 1 included "Never use sudo."
            And the stand-in agent's prompt 1 included "## How Cupcake evaluates policies (two passes)"
            And the stand-in agent's prompt 1 included "# CONFLICT:"
            And the stand-in agent's prompt 1 included "| `file_content_regex` | `value` |"

    Rule: What the agent writes is checked by the loader `run` uses, and every problem goes back to it

        Scenario: Invalid TOML, then an invalid regex, then a file that loads: three attempts
            Given the file "CLAUDE.md":
                """
                Never delete the test fixtures.
                """
            And the stand-in agent writes at attempt 1:
                """
                [[policy]
                name = "Keep the fixtures"
                """
            And the stand-in agent writes at attempt 2:
                """
                policy_schema_version = "1.0"

                [[policy]]
                name = "Keep the fixtures"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "rm .*fixtures/(" }]
                action = { type = "block_with_feedback", feedback_message = "Never delete tests/fixtures/" }
                """
            And the stand-in agent writes at attempt 3:
                """
                policy_schema_version = "1.0"

                [[policy]]
                name = "Keep the fixtures"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "rm .*fixtures/" }]
                action = { type = "block_with_feedback", feedback_message = "Never delete tests/fixtures/" }
                """
            When the user runs "cupcake init --agent-command $STANDIN --yes"
            Then the exit code is 0
            And the stand-in agent ran 3 times
            And the output says "Attempt 1 of 5: 1 problem(s), sending them back to"
            And the output says "Attempt 3 of 5: the policies load (1 in cupcake.toml.tmp)."
            And the stand-in agent's prompt 2 included "- cupcake.toml.tmp:1: not valid TOML: "
            And the stand-in agent's prompt 2 included:
                """
                [[policy]
                name = "Keep the fixtures"
                """
            And the stand-in agent's prompt 3 included:
                """
                - cupcake.toml.tmp:6: policy "Keep the fixtures": invalid regex in command_regex: missing ), unterminated subpattern
                """
            And "cupcake.toml" holds what the stand-in agent wrote at attempt 3
            And the policy file "cupcake.toml" loads with 1 policy
            And "cupcake.toml.tmp" does not exist
            And the output says "Registering the hooks (`cupcake sync`):"
            And ".claude/settings.json" calls "cupcake run --event <Event>" on every event, with timeout 600

        Scenario: The attempts are bounded, and the last one is kept for the user to fix
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
            When the user runs "cupcake init --agent-command $STANDIN --attempts 2 --yes"
            Then the exit code is 1
            And the stand-in agent ran 2 times
            And the output says "Attempt 2 of 2: 1 problem(s), no attempts left:"
            And the output says "The policies still do not load after 2 attempts; nothing was saved."
            And "cupcake.toml" does not exist
            And "cupcake.toml.tmp" holds what the stand-in agent wrote at attempt 1

        Scenario: An agent that fails is not asked again, and nothing is written
            Given the file "CLAUDE.md":
                """
                Never delete the test fixtures.
                """
            And the stand-in agent fails with "credit balance too low"
            When the user runs "cupcake init --agent-command $STANDIN --yes"
            Then the exit code is 1
            And the stand-in agent ran 1 time
            And the output says "The agent failed, so nothing was written:"
            And the output says "credit balance too low"
            And "cupcake.toml" does not exist
            And "cupcake.toml.tmp" does not exist

    Rule: Nothing is saved without the user's approval, and a file replaced is kept as a backup

        Background:
            Given the file "CLAUDE.md":
                """
                Use the design system's <Button>. Deploys need a person.
                """
            And the file "cupcake.toml":
                """
                [[policy]]
                name = "Hand-written"
                action = { type = "provide_feedback", message = "keep it" }
                """
            And the stand-in agent writes at attempt 1:
                """
                policy_schema_version = "1.0"

                [[policy]]
                name = "Hand-written"
                action = { type = "provide_feedback", message = "keep it" }

                [[policy]]
                name = "Use the design system"
                matcher = "Write|Edit"
                conditions = [{ type = "file_content_regex", value = "<button" }]
                action = { type = "provide_feedback", message = "Use <Button> from @/ui" }

                [[policy]]
                name = "Deploys need a person"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^npm run deploy" }, { not = { type = "field", path = "tool_input.description", equals = "dry run" } }]
                action = { type = "ask", reason = "Deploys need a person's go-ahead" }
                """

        Scenario: The user sees one line per policy and the diff, says no, and nothing is written
            When the user runs "cupcake init --agent-command $STANDIN" and answers "n"
            Then the exit code is 1
            And the output says:
                """
                cupcake.toml (replaces the current file): 3 policies
                  1. Hand-written: PreToolUse (every tool); always; feedback: "keep it"
                  2. Use the design system: PreToolUse Write|Edit; if content ~ /<button/; feedback: "Use <Button> from @/ui"
                  3. Deploys need a person: PreToolUse Bash; if command ~ /^npm run deploy/ and not (tool_input.description = "dry run"); ask the person: "Deploys need a person's go-ahead"
                """
            And the output says:
                """
                +[[policy]]
                +name = "Use the design system"
                """
            And the output says "Stand-in agent, attempt 1: no duplicates, no conflicts."
            And the output says "Save cupcake.toml? [y/N]"
            And the output says "Nothing was written."
            And "cupcake.toml" is:
                """
                [[policy]]
                name = "Hand-written"
                action = { type = "provide_feedback", message = "keep it" }
                """
            And "cupcake.toml.bak" does not exist
            And the output says "The draft is kept in cupcake.toml.tmp"
            And ".claude/settings.json" does not exist

        Scenario: The user says yes: the old file is kept as a backup, and a second backup never overwrites the first
            When the user runs "cupcake init --agent-command $STANDIN" and answers "y"
            Then the exit code is 0
            And the output says "Saved cupcake.toml (the previous one is kept as cupcake.toml.bak)."
            And "cupcake.toml" holds what the stand-in agent wrote at attempt 1
            And "cupcake.toml.bak" is:
                """
                [[policy]]
                name = "Hand-written"
                action = { type = "provide_feedback", message = "keep it" }
                """
            When the user edits "cupcake.toml" to hold:
                """
                [[policy]]
                name = "Edited by hand"
                action = { type = "provide_feedback", message = "edited" }
                """
            And the user runs "cupcake init --agent-command $STANDIN --yes"
            Then the output says "Saved cupcake.toml (the previous one is kept as cupcake.toml.bak.1)."
            And "cupcake.toml.bak.1" is:
                """
                [[policy]]
                name = "Edited by hand"
                action = { type = "provide_feedback", message = "edited" }
                """
            And "cupcake.toml.bak" is:
                """
                [[policy]]
                name = "Hand-written"
                action = { type = "provide_feedback", message = "keep it" }
                """

    Rule: Project rules go to cupcake.toml, the user's own to ~/.claude/cupcake.toml, and the hooks are registered

        Scenario: The user's own rules become the user's policies, the project's rules the project's
            Given the file "CLAUDE.md":
                """
                Never push to main.
                """
            And the file "~/.claude/CLAUDE.md":
                """
                Never use sudo.
                """
            And the stand-in agent writes at attempt 1:
                """
                [[policy]]
                name = "No pushes to main"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^git push\\b.*\\bmain\\b" }]
                action = { type = "block_with_feedback", feedback_message = "Open a pull request instead" }
                """
            And the stand-in agent writes into the user file at attempt 1:
                """
                [[policy]]
                name = "No sudo"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^sudo\\b" }]
                action = { type = "block_with_feedback", feedback_message = "Never use sudo" }
                """
            When the user runs "cupcake init --agent-command $STANDIN --yes"
            Then the exit code is 0
            And the policy file "cupcake.toml" loads with 1 policy
            And the policy file "~/.claude/cupcake.toml" loads with 1 policy
            And "~/.claude/cupcake.toml" holds what the stand-in agent wrote into the user file at attempt 1

        Scenario: With only the user's own rules, the hooks are registered for every project
            Given the file "~/.claude/CLAUDE.md":
                """
                Never use sudo.
                """
            And the stand-in agent writes into the user file at attempt 1:
                """
                [[policy]]
                name = "No sudo"
                matcher = "Bash"
                conditions = [{ type = "command_regex", value = "^sudo\\b" }]
                action = { type = "block_with_feedback", feedback_message = "Never use sudo" }
                """
            When the user runs "cupcake init --agent-command $STANDIN --yes"
            Then the exit code is 0
            And "cupcake.toml" does not exist
            And the output says "Registering the hooks (`cupcake sync --scope user`):"
            And "~/.claude/settings.json" calls "$CUPCAKE run --event <Event>" on every event, with timeout 600

        Scenario: --no-sync leaves the hooks to the user
            Given the file "CLAUDE.md":
                """
                Be kind.
                """
            And the stand-in agent writes at attempt 1:
                """
                policy_schema_version = "1.0"
                """
            When the user runs "cupcake init --agent-command $STANDIN --yes --no-sync"
            Then the exit code is 0
            And the output says "Next: run `cupcake sync` to register Cupcake's hooks with Claude Code."
            And ".claude/settings.json" does not exist

        Scenario: When the agent writes what is already there, nothing is saved and no backup is made
            Given the file "CLAUDE.md":
                """
                Be kind.
                """
            And the file "cupcake.toml":
                """
                policy_schema_version = "1.0"
                """
            And the stand-in agent writes at attempt 1:
                """
                policy_schema_version = "1.0"
                """
            When the user runs "cupcake init --agent-command $STANDIN --yes"
            Then the exit code is 0
            And the output says "The policies are the same as the files already in place: nothing to save."
            And "cupcake.toml.bak" does not exist
            And "cupcake.toml.tmp" does not exist

    Rule: Without an agent, init says so and offers the starter

        Scenario: No agent is installed: the starter is offered, and written on a yes
            Given the file "CLAUDE.md":
                """
                Never delete the test fixtures.
                """
            And no agent is installed
            When the user runs "cupcake init" and answers "y"
            Then the output says "No agent available: `claude` was not found on PATH."
            And the output says "Write a starter cupcake.toml instead (the recommended rules on, examples to adapt)? [y/N]"
            And the exit code is 0
            And "cupcake.toml" is the starter

        Scenario: No agent is installed and nobody answers: init says how to go on
            Given the file "CLAUDE.md":
                """
                Never delete the test fixtures.
                """
            And no agent is installed
            When the user runs "cupcake init"
            Then the exit code is 1
            And the output says "`cupcake init --template` writes a starter cupcake.toml instead (the recommended rules on, examples to adapt)."
            And "cupcake.toml" does not exist

        Scenario: --template writes a starter that enforces something; every example in it loads once uncommented
            When the user runs "cupcake init --template --yes"
            Then the exit code is 0
            And "cupcake.toml" is the starter
            And the policy file "cupcake.toml" loads with 75 policies
            And with every example uncommented, "cupcake.toml" loads with 81 policies
            When the agent asks to run "git push --force"
            Then the tool call is denied
            When the agent asks to run "rm xyz"
            Then the tool call is denied with:
                """
                Operation blocked: xyz must never be deleted
                """
