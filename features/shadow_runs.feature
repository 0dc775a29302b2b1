Feature: Shadow runs: try new rules on real work before they enforce anything
    A team rolls rules out without breaking a day's work. `cupcake.toml` names a candidate policy
    file with `[shadow] candidate = "…"`: the candidate is evaluated on every live event beside the
    enforced policies, never decides, and every event it would decide otherwise is recorded in
    `.cupcake/shadow.log`. `cupcake shadow report` sums the differences up (events, rules,
    decisions) and `cupcake shadow promote` makes the candidate the enforced set, once the person
    has seen the diff and said yes. A single policy (`mode = "observe"`), a pack rule or a whole
    pack (`[packs] observe`) can be observed the same way: its decisions are recorded, not enforced.

    Background:
        Given the project policy:
            """
            [shadow]
            candidate = "cupcake.candidate.toml"

            [[policy]]
            name = "no-force-push"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git push --force" }]
            action = { type = "block_with_feedback", feedback_message = "Push without --force." }
            """
        And the project file "cupcake.candidate.toml" holds:
            """
            imports = ["cupcake:git"]
            """

    Scenario: The candidate never changes what the agent is told
        When the agent asks to run "git reset --hard HEAD~3"
        Then the tool call is not denied
        And the shadow log records the candidate deciding "block" by "git.reset-hard" where the enforced set decided "allow"

    Scenario: An event both sets decide alike is not recorded
        When the agent asks to run "git push --force"
        Then the tool call is denied by the policy "no-force-push"
        And the shadow log records the candidate deciding "block" by "git.force-push" where the enforced set decided "block"
        When the agent asks to run "ls -la"
        Then the shadow log has 1 line

    Scenario: The report shows the events, the rules and the decisions that differ
        When the agent asks to run "git reset --hard HEAD~3"
        And the agent asks to run "git clean -fdx"
        And the agent asks to run "ls"
        And the user runs "cupcake shadow report"
        Then the output says "the candidate decides 2 of them otherwise"
        And the output says "allow -> block       2"
        And the output says "git.reset-hard"
        And the output says "git.clean-force"
        And the output says "git clean -fdx"

    Scenario: The report is also JSON for scripts
        When the agent asks to run "git reset --hard HEAD~3"
        And the user runs "cupcake shadow report --json"
        Then the JSON output has "differences" 1
        And the JSON output has the change "allow -> block" 1

    Scenario: Promoting shows the diff and asks first; no is no
        When the user runs "cupcake shadow promote" and answers "n"
        Then the output says "adds 10: git.branch-force-delete"
        And the output says "removes 1: no-force-push"
        And the output says "+imports = ["cupcake:git"]"
        And the output says "Nothing changed."
        And the exit code is 1
        And the project file "cupcake.toml" holds "no-force-push"

    Scenario: A yes makes the candidate the enforced set, and the old file is kept
        When the user runs "cupcake shadow promote" and answers "y"
        Then the exit code is 0
        And the project file "cupcake.toml" holds "cupcake:git"
        And the project file "cupcake.toml.bak" holds "no-force-push"
        When the agent asks to run "git reset --hard HEAD~3"
        Then the tool call is denied by the policy "git.reset-hard"

    Scenario: A candidate with errors is not promoted
        Given the project file "cupcake.candidate.toml" holds:
            """
            [[policy]]
            name = "broken"
            action = { type = "block_with_feedback" }
            """
        When the user runs "cupcake shadow promote --yes"
        Then the error says "cupcake.candidate.toml has errors, so it is not promoted"
        And the exit code is 1

    Scenario: The agent may not change the candidate, nor promote it
        When the agent asks to write "cupcake.candidate.toml" with:
            """
            [[policy]]
            name = "allow everything"
            action = { type = "approve" }
            """
        Then the tool call is denied with:
            """
            Operation blocked: Cupcake self-protection: cupcake.candidate.toml is a Cupcake policy file. Agents may not change it: a person must make this change, so ask the user to do it.
            """
        When the agent asks to run "cupcake shadow promote --yes"
        Then the denial says "`cupcake shadow promote --yes` replaces the enforced policies with the shadow candidate"

    Scenario: An observed policy is recorded, never enforced
        Given the project policy:
            """
            [[policy]]
            name = "no-curl"
            mode = "observe"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "curl" }]
            action = { type = "block_with_feedback", feedback_message = "Use the HTTP client." }
            """
        When the agent asks to run "curl https://example.com"
        Then the tool call is not denied
        And the shadow log records that "no-curl" would have blocked

    Scenario: A pack rule, or a whole pack, can be observed
        Given the project policy:
            """
            imports = ["cupcake:git", "cupcake:network"]

            [packs]
            observe = ["git.reset-hard", "cupcake:network"]
            """
        When the agent asks to run "git reset --hard HEAD~3"
        Then the tool call is not denied
        And the shadow log records that "git.reset-hard" would have blocked
        When the agent asks to run "git push --force"
        Then the tool call is denied by the policy "git.force-push"

    Scenario: validate says what is evaluated beside the enforced set
        When the user runs "cupcake validate"
        Then the output says "shadow: the candidate cupcake.candidate.toml (10 policies, with the user's file)"

    Scenario: The shadow evaluation is in the pipeline only where it has something to evaluate
        When the user runs "cupcake systems"
        Then the output says "950  shadow_evaluation"
        Given the project policy:
            """
            imports = ["cupcake:git"]
            """
        When the user runs "cupcake systems"
        Then the output does not say "shadow_evaluation"
