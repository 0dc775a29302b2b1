Feature: Copilot CLI users are governed by the team's policies
    The team writes its rules once, in Claude Code's words (Bash, Write, PreToolUse), and
    `cupcake sync --agent copilot` hooks them into Copilot CLI. Its adapter reads Copilot CLI's own events and
    tools, and answers in the form Copilot CLI honours.
    The same scenarios run inside the real Copilot CLI, offline, in tests/realclient/agents/.

    Background:
        Given a copilot user's project with the policy:
            """
            [[policy]]
            name = "no-rm-rf"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = 'rm\s+-rf' }]
            action = { type = "block_with_feedback", feedback_message = "The team does not allow rm -rf." }

            [[policy]]
            name = "no-env-files"
            matcher = "Write|Edit"
            conditions = [{ type = "filepath_regex", value = '\.env$' }]
            action = { type = "block_with_feedback", feedback_message = "Secrets stay out of .env files." }

            [[policy]]
            name = "scripts"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = '^sh scripts/' }]
            action = { type = "provide_feedback", message = "Prefer make targets over raw scripts." }

            [[policy]]
            name = "log-after-shell"
            hook_event = "PostToolUse"
            matcher = "Bash"
            action = { type = "run_command", command = "sh -c 'printf %s \"$1\" > shell.log' x {{command}}" }
            """

    Scenario: A Copilot CLI user's rm -rf is blocked with the team's message
        When the copilot agent asks to run "rm -rf build"
        Then the call is blocked and the model is shown "The team does not allow rm -rf."

    Scenario: An ordinary Copilot CLI command goes ahead
        When the copilot agent asks to run "ls -la"
        Then the call goes ahead

    Scenario: Copilot CLI's own file tool (create) is held to the Write|Edit policy
        When the copilot agent asks to write ".env"
        Then the call is blocked and the model is shown "Secrets stay out of .env files."

    Scenario: Soft feedback reaches the Copilot CLI model
        When the copilot agent asks to run "sh scripts/release.sh"
        Then the call is blocked and the model is shown "Prefer make targets over raw scripts."

    Scenario: A check runs after Copilot CLI's shell command, and sees that command
        When the copilot agent has run "make lint"
        Then the project file "shell.log" holds "make lint"

    Scenario: Copilot CLI may not rewrite the team's policy file
        When the copilot agent asks to run "echo '# gone' > cupcake.toml"
        Then the call is blocked and the model is shown "Cupcake self-protection"

    Scenario: Copilot CLI may not rewrite its own hook configuration
        When the copilot agent asks to write ".github/hooks/cupcake.json"
        Then the call is blocked and the model is shown "where Cupcake's hooks are installed"

    Scenario: A decoy path beside Copilot CLI's own field hides nothing
        Copilot's create tool writes the file its `path` names; a `file_path` sent beside it is a decoy.
        Every path field of a tool call is checked, and policies see the path the tool writes.
        When the copilot agent asks to create "cupcake.toml" with a decoy file_path "notes.txt"
        Then the call is blocked and the model is shown "cupcake.toml is a Cupcake policy file"
        When the copilot agent asks to create ".env" with a decoy file_path "notes.txt"
        Then the call is blocked and the model is shown "Secrets stay out of .env files."
