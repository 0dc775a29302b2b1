Feature: Codex users are governed by the team's policies
    The team writes its rules once, in Claude Code's words (Bash, Write, PreToolUse), and
    `cupcake sync --agent codex` hooks them into Codex. Its adapter reads Codex's own events and
    tools, and answers in the form Codex honours.
    The same scenarios run inside the real Codex, offline, in tests/realclient/agents/.

    Background:
        Given a codex user's project with the policy:
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

    Scenario: A Codex user's rm -rf is blocked with the team's message
        When the codex agent asks to run "rm -rf build"
        Then the call is blocked and the model is shown "The team does not allow rm -rf."

    Scenario: An ordinary Codex command goes ahead
        When the codex agent asks to run "ls -la"
        Then the call goes ahead

    Scenario: Codex's own file tool (apply_patch) is held to the Write|Edit policy
        When the codex agent asks to write ".env"
        Then the call is blocked and the model is shown "Secrets stay out of .env files."

    Scenario: Soft feedback reaches the Codex model
        When the codex agent asks to run "sh scripts/release.sh"
        Then the call is blocked and the model is shown "Prefer make targets over raw scripts."

    Scenario: A check runs after Codex's shell command, and sees that command
        When the codex agent has run "make lint"
        Then the project file "shell.log" holds "make lint"

    Scenario: Codex may not rewrite the team's policy file
        When the codex agent asks to run "echo '# gone' > cupcake.toml"
        Then the call is blocked and the model is shown "Cupcake self-protection"

    Scenario: Codex may not rewrite its own hook configuration
        When the codex agent asks to write ".codex/hooks.json"
        Then the call is blocked and the model is shown "where Cupcake's hooks are installed"

    Scenario: A policy file made in the session's folder never replaces the project's rules
        Codex names no project folder: its hooks get the folder the session started in. Walking up
        from there within a git worktree, the outermost cupcake.toml is the project's, so one made in
        src/ (even beside a src/.git) changes nothing.
        Given the project is a git repository
        And the codex session started in "src"
        And the file "src/.git/HEAD":
            """
            ref: refs/heads/main
            """
        And the file "src/cupcake.toml":
            """
            [settings]
            self_protection = false

            [[policy]]
            name = "anything goes"
            action = { type = "approve" }
            """
        When the codex agent asks to run "rm -rf build"
        Then the call is blocked and the model is shown "The team does not allow rm -rf."
        When the codex agent asks to run "echo '# gone' > ../cupcake.toml"
        Then the call is blocked and the model is shown "Cupcake self-protection"

    Scenario: Outside a git worktree, the Codex agent may not make a policy file in a subfolder
        There the nearest cupcake.toml walking up is the project's, so a new one below the root would
        govern an agent started in its folder.
        Given the codex session started in "src"
        When the codex agent asks to write "src/cupcake.toml"
        Then the call is blocked and the model is shown "where Cupcake would read the policies of an agent started in that folder"

    Scenario Outline: apply_patch headers are read the way Codex reads them
        Codex trims each header line of white space, so an indented header is still a header
        (spaces, tabs and other white space are written as escapes: a table cell is trimmed).
        When the codex agent sends a patch with the header "<header>"
        Then the call is blocked and the model is shown "Cupcake self-protection"

        Examples:
            | header                                            |
            | \x20\x20*** Delete File: cupcake.toml             |
            | \t*** Delete File: cupcake.toml                   |
            | \u00a0*** Delete File: .cupcake/policy.cache      |
            | *** Delete File: cupcake.toml\r                   |
            | *** Update File: notes.txt\n\x20\x20*** Move to: cupcake.toml |
