Feature: cupcake doctor --live: proof with the agent you actually have
    `cupcake doctor --live` starts the agent installed on the person's PATH (Claude Code, Gemini CLI)
    headless, in a throwaway project with Cupcake hooked in by `cupcake sync`, against a scripted model
    on 127.0.0.1: no API key, no network, bounded in time. The model asks the agent to run a command a
    sample policy denies, then an ordinary one; the check passes when the first did not run and the
    model was shown Cupcake's reason, and the second ran. It reports the agent's version, and says
    plainly when the agent is missing, misbehaves, hangs, or ignores Cupcake's hooks.

    @real_client
    Scenario: Claude Code blocks the sample deny and runs the sample allow
        Given Claude Code is installed on the person's PATH
        When the person runs "cupcake doctor --live --agent claude"
        Then the live check says "cupcake doctor --live: Claude Code 2.1.328"
        And the live check says "ok       live claude: a sample deny blocked in Claude Code 2.1.328"
        And the live check says "ok       live claude: a sample allow ran in Claude Code 2.1.328"
        And the live check passes

    @real_client
    Scenario: Gemini CLI blocks the sample deny and runs the sample allow
        Given Gemini CLI is installed on the person's PATH
        When the person runs "cupcake doctor --live --agent gemini"
        Then the live check says "ok       live gemini: a sample deny blocked in Gemini CLI 0.61.0"
        And the live check says "ok       live gemini: a sample allow ran in Gemini CLI 0.61.0"
        And the live check passes

    @real_client
    Scenario: An agent that is not installed is named, with how to install it
        When the person runs "cupcake doctor --live --agent gemini"
        Then the live check says "Gemini CLI (`gemini`) is not installed on this PATH"
        And the live check fails
