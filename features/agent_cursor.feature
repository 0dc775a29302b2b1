Feature: Cursor users are governed by the team's policies
    The team writes its rules once, in Claude Code's words (Bash, Write, PreToolUse), and
    `cupcake sync --agent cursor` hooks them into Cursor. Its adapter reads Cursor's own events and
    tools, and answers in the form Cursor honours.
    Cursor's CLI is not in the package registries: these answers follow its documentation and are
    not verified in the real client.

    Background:
        Given a cursor user's project with the policy:
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

    Scenario: A Cursor user's rm -rf is blocked with the team's message
        When the cursor agent asks to run "rm -rf build"
        Then the call is blocked and the model is shown "The team does not allow rm -rf."

    Scenario: An ordinary Cursor command goes ahead
        When the cursor agent asks to run "ls -la"
        Then the call goes ahead

    Scenario: Cursor's own file tool (Write) is held to the Write|Edit policy
        When the cursor agent asks to write ".env"
        Then the call is blocked and the model is shown "Secrets stay out of .env files."

    Scenario: Soft feedback reaches the Cursor model
        When the cursor agent asks to run "sh scripts/release.sh"
        Then the call is blocked and the model is shown "Prefer make targets over raw scripts."

    Scenario: A check runs after Cursor's shell command, and sees that command
        When the cursor agent has run "make lint"
        Then the project file "shell.log" holds "make lint"

    Scenario: Cursor may not rewrite the team's policy file
        When the cursor agent asks to run "echo '# gone' > cupcake.toml"
        Then the call is blocked and the model is shown "Cupcake self-protection"

    Scenario: Cursor may not rewrite its own hook configuration
        When the cursor agent asks to write ".cursor/hooks.json"
        Then the call is blocked and the model is shown "where Cupcake's hooks are installed"

    Scenario: Cursor's MCP tools are MCP tools, whatever their names
        beforeMCPExecution names the tool bare (write_file), not mcp__server__tool: Cupcake names it
        mcp__cursor__write_file, so self-protection and `mcp__.*` policies hold it like any MCP tool.
        When the cursor agent calls the MCP tool "write_file" on "cupcake.toml"
        Then the call is blocked and the model is shown "Cupcake self-protection"
