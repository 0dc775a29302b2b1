Feature: The OS layer: every agent's shell commands run in Cupcake's jail
    Cupcake's hook reads each shell command and blocks the writes to its own files that it can see; a
    program it cannot see into can still change them. With the OS layer on, each shell call Cupcake lets
    through comes back rewritten to run in a jail where Cupcake's files are read-only and its secrets
    unreadable, and everything else is as it was. If the jail cannot start, the command is not run.

    Background:
        Given a gemini user's project with the policy:
            """
            [[policy]]
            name = "no deploys"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^deploy-prod" }]
            action = { type = "block_with_feedback", feedback_message = "No deploys from here." }
            """
        And the script "tool.py" writes cupcake.toml through a name it builds when it runs, then "ordinary.txt"

    Scenario: A script the hook cannot see into cannot change the policy file
        When the user runs "cupcake sync --agent gemini --sandbox"
        And the gemini agent asks, through the hook sync wrote, to run "python3 tool.py"
        Then the agent is told to run it in Cupcake's jail
        When the agent runs what it was told
        Then the command printed "REFUSED Read-only file system"
        And the command exited with 7
        And the policy file is unchanged
        And the project file "ordinary.txt" holds "ok"

    Scenario: Without the OS layer the same script does change it
        When the user runs "cupcake sync --agent gemini"
        And the gemini agent asks, through the hook sync wrote, to run "python3 tool.py"
        Then the call goes ahead
        When the agent runs what it was told
        Then the command printed "WROTE"

    Scenario: What the policies block stays blocked
        When the user runs "cupcake sync --agent gemini --sandbox"
        And the gemini agent asks, through the hook sync wrote, to run "deploy-prod now"
        Then the call is blocked and the model is shown "No deploys from here."

    Scenario: An ask the agent cannot carry with a rewrite is blocked with its reason
        Given a codex user's project with the policy:
            """
            [[policy]]
            name = "confirm deploys"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^deploy" }]
            action = { type = "ask", reason = "Deploys need a person." }
            """
        When the user runs "cupcake sync --agent codex --sandbox"
        And the codex agent asks, through the hook sync wrote, to run "deploy staging"
        Then the call is blocked and the model is shown "Deploys need a person."
        And the call is blocked and the model is shown "cannot ask and also run the command in Cupcake's jail"

    Scenario: Policies that change before the command starts stop it until it is asked again
        When the user runs "cupcake sync --agent gemini --sandbox"
        And the gemini agent asks, through the hook sync wrote, to run "python3 tool.py"
        And the project policy file is changed to block "rm" instead
        And the agent runs what it was told
        Then the command exited with 126
        And the command printed "Cupcake jail: the command was not run: Cupcake's policy files changed after the hook approved this command"
        And "ordinary.txt" does not exist

    Scenario: sync says what the OS layer trades for Codex
        When the user runs "cupcake sync --agent codex --sandbox"
        Then the output says "OS layer: jailed"
        And the output says "Codex's own sandbox is off there"
        And the output says "To turn the layer off: cupcake sync --agent codex --sandbox --uninstall"

    Scenario: The doctor says which layer guards each agent, and how to raise it
        When the user runs "cupcake sync --agent gemini --sandbox"
        And the user runs "cupcake sync --agent droid"
        And the user runs "cupcake doctor"
        Then the doctor reports as ok "Gemini CLI: OS layer: jailed"
        And the doctor reports as ok "Factory droid: OS layer: hook only"
        And the output says "To raise it to jailed: `cupcake sync --agent droid --sandbox`"
