Feature: Factory droid users are governed by the team's policies
    The team writes its rules once, in Claude Code's words (Bash, Write, PreToolUse), and
    `cupcake sync --agent droid` hooks them into Factory droid. Its adapter reads Factory droid's own events and
    tools, and answers in the form Factory droid honours.
    The same scenarios run inside the real Factory droid, offline, in tests/realclient/agents/.

    Background:
        Given a droid user's project with the policy:
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

    Scenario: A Factory droid user's rm -rf is blocked with the team's message
        When the droid agent asks to run "rm -rf build"
        Then the call is blocked and the model is shown "The team does not allow rm -rf."

    Scenario: An ordinary Factory droid command goes ahead
        When the droid agent asks to run "ls -la"
        Then the call goes ahead

    Scenario: Factory droid's own file tool (Create) is held to the Write|Edit policy
        When the droid agent asks to write ".env"
        Then the call is blocked and the model is shown "Secrets stay out of .env files."

    Scenario: Soft feedback reaches the Factory droid model
        When the droid agent asks to run "sh scripts/release.sh"
        Then the call is blocked and the model is shown "Prefer make targets over raw scripts."

    Scenario: A check runs after Factory droid's shell command, and sees that command
        When the droid agent has run "make lint"
        Then the project file "shell.log" holds "make lint"

    Scenario: Factory droid may not rewrite the team's policy file
        When the droid agent asks to run "echo '# gone' > cupcake.toml"
        Then the call is blocked and the model is shown "Cupcake self-protection"

    Scenario: Factory droid may not rewrite its own hook configuration
        When the droid agent asks to write ".factory/settings.json"
        Then the call is blocked and the model is shown "where Cupcake's hooks are installed"
