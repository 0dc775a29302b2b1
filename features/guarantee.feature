Feature: An answer always exists
    Whatever fails (bad JSON on stdin, a broken or unreadable policy file, a crashing system, a
    hanging step, an unwritable .cupcake/), cupcake run still prints exactly one well-formed
    answer and exits 0; no stack trace ever reaches the agent. [settings] fail_mode decides what
    a failure means. "open" (the default) only tells the user what failed, in a systemMessage:
    never an allow, so Claude Code's own permission flow still applies. "closed" blocks whatever
    can be blocked, with the failure as the reason.

    Scenario Outline: Bad JSON on stdin
        Given the project policy:
            """
            [settings]
            fail_mode = "<fail_mode>"

            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        When Claude Code sends "{not json" as the PreToolUse event
        Then the answer is <answer> saying "the hook event on stdin is not valid JSON"

        Examples:
            | fail_mode | answer                  |
            | open      | only a note to the user |
            | closed    | a denial                |

    Scenario Outline: A broken policy file, with fail_mode set in that same file
        Given the project policy:
            """
            [settings]
            fail_mode = "<fail_mode>"

            [[policy]]
            name = "Typo in the action"
            matcher = "Bash"
            action = { type = "blok", feedback_message = "No sudo" }
            """
        When the agent asks to run "sudo reboot"
        Then the answer is <answer> saying "cupcake.toml:7: policy \"Typo in the action\": unknown action type \"blok\" (did you mean \"block_with_feedback\"?)"

        Examples:
            | fail_mode | answer                  |
            | open      | only a note to the user |
            | closed    | a denial                |

    Scenario: A file that is not even TOML counts as having no settings: fail_mode is open
        Given the project policy:
            """
            [settings]
            fail_mode = "closed"
            [[policy]
            name = "broken header"
            """
        When the agent asks to run "ls"
        Then the answer is only a note to the user saying "cupcake.toml:3: not valid TOML"

    Scenario: The user's file asking for closed makes every failure closed
        Given the user policy:
            """
            [settings]
            fail_mode = "closed"
            """
        And the project policy:
            """
            [[policy]]
            name = "Missing its action"
            """
        When the agent asks to run "ls"
        Then the answer is a denial saying "missing required key `action`"

    Scenario Outline: An unreadable policy file
        Given the user policy:
            """
            [settings]
            fail_mode = "<fail_mode>"
            """
        And the project policy file cannot be read
        When the agent asks to run "ls"
        Then the answer is <answer> saying "cupcake.toml: cannot read the file"

        Examples:
            | fail_mode | answer                  |
            | open      | only a note to the user |
            | closed    | a denial                |

    Scenario Outline: A system that crashes
        Given the project policy:
            """
            [settings]
            fail_mode = "<fail_mode>"

            [[policy]]
            name = "Style"
            action = { type = "provide_feedback", message = "lint" }
            """
        And the feedback collection system crashes with "boom"
        When the agent asks to run "ls"
        Then the answer is <answer> saying "feedback_collection failed: RuntimeError: boom"
        And no stack trace is shown

        Examples:
            | fail_mode | answer                  |
            | open      | only a note to the user |
            | closed    | a denial                |

    Scenario Outline: A step that hangs past the run's deadline
        Given the project policy:
            """
            [settings]
            fail_mode = "<fail_mode>"
            hook_timeout_seconds = 6

            [[policy]]
            name = "Style"
            action = { type = "provide_feedback", message = "lint" }
            """
        And the feedback collection system hangs
        When the agent asks to run "ls"
        Then the answer is <answer> saying "ran past the run's deadline"
        And the answer came within 3 seconds

        Examples:
            | fail_mode | answer                  |
            | open      | only a note to the user |
            | closed    | a denial                |

    Scenario: A failure never loosens a block that was already decided
        Given the project policy:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        And the response routing system is preceded by a system that crashes with "late trouble"
        When the agent asks to run "sudo ls"
        Then the tool call is denied with:
            """
            Operation blocked: No sudo
            """
        And the user is told "late trouble"

    Scenario: An unwritable .cupcake/ never changes the decision; the user is told at the next prompt, not on every call
        Given the project policy:
            """
            [[policy]]
            name = "No sudo"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^sudo" }]
            action = { type = "block_with_feedback", feedback_message = "No sudo" }
            """
        And the per-user secret exists, as `cupcake sync` leaves it
        And .cupcake cannot be written
        When the agent asks to run "sudo ls"
        Then the tool call is denied with:
            """
            Operation blocked: No sudo
            """
        And the user is told nothing
        When the user submits the prompt "go on"
        Then the user is told ".cupcake/ cannot be written"

    Scenario: A bad command line still gets an answer
        Given the project policy:
            """
            [[policy]]
            name = "Style"
            action = { type = "provide_feedback", message = "lint" }
            """
        When the hook runs cupcake with the arguments "run --evnt PreToolUse"
        Then the answer is only a note to the user saying "unknown argument '--evnt'"
        And the exit code is 0
