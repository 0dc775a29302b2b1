Feature: Approvals only a person can give
    When a rule blocks a call that should go ahead, the person, never the agent, lets that exact call
    through: once, for a while, or always with a reason recorded. The block message carries a short
    code in the agent's user-only channel (Claude Code's systemMessage: the user sees it, the model
    never does), and the person runs `cupcake allow CODE` in their own terminal. The store keeps only
    keyed hashes of the codes; five wrong codes withdraw every pending one; the agent may not run
    `cupcake allow`, nor write the store, and the operating-system layer keeps the store read-only
    to its commands. Every grant and every use is in the audit trail.

    Background:
        Given the project policy:
            """
            [[policy]]
            name = "no-force-push"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git push --force" }]
            action = { type = "block_with_feedback", feedback_message = "Push without --force." }
            """
        And Cupcake's per-user secret exists

    Scenario: The block gives the person a code the model never sees
        When the agent asks to run "git push --force"
        Then the tool call is denied with:
            """
            Operation blocked: Push without --force.
            """
        And the user is told "Cupcake: no-force-push blocked this call. If it should go ahead, run this in your own terminal (not through the agent):"
        And the person is shown a code to run with "cupcake allow"
        And the model is not shown the code

    Scenario: The person lets that exact call through once
        When the agent asks to run "git push --force"
        And the person runs "cupcake allow" with the code
        Then the output says "Allowed once: Bash `git push --force`, which no-force-push blocks"
        When the agent asks to run "git push --force" again
        Then the tool call is allowed with the reason "Allowed by a person's approval (cupcake allow)."
        And the user is told "let through by your approval (once) of no-force-push"
        When the agent asks to run "git push --force" again
        Then the tool call is denied by the policy "no-force-push"

    Scenario: For a while, the same call goes through every time; another call does not
        When the agent asks to run "git push --force"
        And the person runs "cupcake allow --for 2h" with the code
        Then the output says "Allowed for 2h"
        When the agent asks to run "git push --force" again
        Then the tool call is allowed with the reason "Allowed by a person's approval (cupcake allow)."
        When the agent asks to run "git push --force origin main"
        Then the tool call is denied by the policy "no-force-push"

    Scenario: Always needs a reason, and the reason is recorded
        When the agent asks to run "git push --force"
        And the person runs "cupcake allow --always" with the code
        Then the error says "--always needs --reason"
        When the person runs "cupcake allow --always --reason 'release job'" with the code
        And the user runs "cupcake allow --list"
        Then the output says "(always; by"
        And the output says "reason: release job"

    Scenario: No code when self-protection blocks the call too: no person's code could let it through
        When the agent asks to run "git push --force; rm cupcake.toml"
        Then the tool call is denied by the policy "no-force-push"
        And the denial says "Cupcake self-protection"
        And no code was offered

    Scenario: The agent may not run cupcake allow, even with the real code
        When the agent asks to run "git push --force"
        And the agent asks to run "cupcake allow" with the code
        Then the denial says "lets through a call a policy blocked, which only a person may grant"
        When the agent asks to run "git push --force" again
        Then the tool call is denied by the policy "no-force-push"

    Scenario: The agent may not write the store
        When the agent asks to write ".cupcake/approvals.json" with:
            """
            {"v": 1, "pending": [], "grants": [], "wrong": []}
            """
        Then the denial says "is Cupcake's own data (.cupcake/)"

    Scenario: Wrong codes are bounded: five withdraw every pending code
        When the agent asks to run "git push --force"
        And the person types 5 wrong codes
        Then the error says "every pending code is withdrawn"
        When the person runs "cupcake allow" with the code
        Then the error says "too many wrong codes"

    Scenario: Grants and uses are in the audit trail, with audit logging off
        When the agent asks to run "git push --force"
        And the person runs "cupcake allow" with the code
        And the agent asks to run "git push --force" again
        Then the last audit record notes "used a person's approval (once) of no-force-push"

    Scenario: An agent with no user-only channel gets no code
        Given a copilot user's project with the policy:
            """
            [[policy]]
            name = "no-force-push"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git push --force" }]
            action = { type = "block_with_feedback", feedback_message = "Push without --force." }
            """
        When the copilot agent asks to run "git push --force"
        Then the call is blocked and the model is shown "Push without --force."
        And no code was offered

    Scenario: approvals = "ask" lets the person decide in the agent's own prompt instead
        Given a copilot user's project with the policy:
            """
            [settings]
            approvals = "ask"

            [[policy]]
            name = "no-force-push"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "git push --force" }]
            action = { type = "block_with_feedback", feedback_message = "Push without --force." }
            """
        When the copilot agent asks to run "git push --force"
        Then the copilot agent asks the person

    Scenario: doctor says which agent gets no code, and what to use there
        Given the user runs "cupcake sync --agent copilot"
        When the user runs "cupcake doctor"
        Then the output says "Copilot CLI has no user-only channel"
        And the output says "makes such a block its own question to the person"
