Feature: The policy cache
    Parsing and validating cupcake.toml is the slow part of a run, so the compiled policies are
    kept in .cupcake/policy.cache: plain data (never pickle), written atomically, and valid only
    for the exact files it was built from (their size, times and inode, and the Cupcake and
    Python versions). Anything else about it (corrupt, foreign, stale) and it is rebuilt.

    Background:
        Given the per-user secret exists, as `cupcake sync` leaves it
        And the project policy:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """

    Scenario: The first run builds the cache and the next runs reuse it
        When the agent asks to run "sudo ls"
        Then the policy cache exists
        When the agent asks to run "sudo ls" again
        Then the tool call is denied
        And the policy cache was not rewritten

    Scenario: An edit to the policy file is seen at once
        When the agent asks to run "sudo ls"
        And the project policy file is changed to block "^rm" instead
        And the agent asks to run "sudo ls" again
        Then Cupcake prints nothing
        When the agent asks to run "rm x"
        Then the tool call is denied

    Scenario Outline: A cache that cannot be trusted is rebuilt
        When the agent asks to run "sudo ls"
        And the policy cache is <spoiled>
        And the agent asks to run "sudo ls" again
        Then the tool call is denied
        And the policy cache is valid again

        Examples:
            | spoiled                                 |
            | truncated                               |
            | filled with random bytes                |
            | replaced by one built for another file  |
            | flipped in one byte                     |

    Scenario: The cache is plain data, not pickle
        When the agent asks to run "sudo ls"
        Then the policy cache starts with "CUPCAKE"

    Scenario: A cache built from the built-in packs is trusted by validate (the compiled form is canonical)
        The run and validate are separate processes, with different string hashes: the same sources
        compile to the same bytes in both, so validate never calls the runs' cache forged.
        Given the project policy:
            """
            imports = ["cupcake:recommended", "cupcake:network"]
            """
        When the agent asks, through the cupcake command, to run "ls -la"
        And the user runs "cupcake validate"
        Then the exit code is 0
        And the output says "ok: "
        And the user is not warned
        And the policy cache exists
