Feature: Where policies come from
    The project's cupcake.toml comes first and the user's ~/.claude/cupcake.toml after it, as one
    ordered list: feedback from both files is shown, and a project block beats a user approve.
    The project root is $CLAUDE_PROJECT_DIR, else the nearest directory above the agent's working
    directory that holds cupcake.toml or .cupcake/: an agent that moves into src/ is still governed.

    Scenario: A project block beats a user approve, and feedback from both files shows
        Given the project policy:
            """
            [[policy]]
            name = "No force pushes"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git push.*--force" }]
            action = { type = "block_with_feedback", feedback_message = "Force pushes rewrite shared history" }

            [[policy]]
            name = "Project style"
            matcher = "Bash"
            action = { type = "provide_feedback", message = "Use the project's git aliases" }
            """
        And the user policy:
            """
            [[policy]]
            name = "I trust my git"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^git " }]
            action = { type = "approve", reason = "git is fine" }

            [[policy]]
            name = "User style"
            matcher = "Bash"
            action = { type = "provide_feedback", message = "Sign your commits" }
            """
        When the agent asks to run "git push --force origin main"
        Then the tool call is denied with:
            """
            Operation blocked: Force pushes rewrite shared history

            Additional policy feedback:
            • Use the project's git aliases
            • Sign your commits
            """

    Scenario: The user's approve applies where the project says nothing
        Given the project policy:
            """
            [[policy]]
            name = "No force pushes"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git push.*--force" }]
            action = { type = "block_with_feedback", feedback_message = "Force pushes rewrite shared history" }
            """
        And the user policy:
            """
            [[policy]]
            name = "I trust my git"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^git " }]
            action = { type = "approve", reason = "git is fine" }
            """
        When the agent asks to run "git status"
        Then the tool call is allowed with the reason "git is fine"

    Scenario: An agent working in a subdirectory is still governed by the root's policies
        Given the project policy:
            """
            [[policy]]
            name = "Keep the lockfile"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "rm .*package-lock\\.json" }]
            action = { type = "block_with_feedback", feedback_message = "The lockfile is committed on purpose" }

            [[policy]]
            name = "Generated code"
            matcher = "Write|Edit"
            conditions = [{ type = "filepath_regex", value = "^src/generated/" }]
            action = { type = "block_with_feedback", feedback_message = "src/generated/ is written by the code generator" }
            """
        And the agent works in "src/" without CLAUDE_PROJECT_DIR
        When the agent asks to run "rm ../package-lock.json"
        Then the tool call is denied
        When the agent asks to write "generated/api.ts" with:
            """
            export {};
            """
        Then the tool call is denied with:
            """
            Operation blocked: src/generated/ is written by the code generator
            """

    Scenario: No policy file at all: Cupcake prints nothing and writes nothing
        Given no policy file
        When the agent asks to run "rm -rf /"
        Then Cupcake prints nothing
        And Cupcake created no .cupcake directory

    Scenario: Only a user policy file
        Given the user policy:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo\\b" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo from agents" }
            """
        When the agent asks to run "sudo rm -rf /var/cache"
        Then the tool call is denied with:
            """
            Operation blocked: No sudo from agents
            """
