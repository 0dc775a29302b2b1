Feature: Evaluator feedback: what an evaluator found reaches the agent before it works again
    An evaluator (seed 004's "sidecar") reviews each piece of finished work and writes its findings
    as JSON files, eval-*.json, into a directory of the project. Without Cupcake the building agent
    never reads them. With [settings.eval_feedback] turned on, Cupcake reads the newest eval (by
    modification time; eval-campaign-* summaries are skipped) when a prompt is submitted or a
    session starts. It gives the model seed 004's warning block, word for word. It also keeps a
    cumulative list of repeated mistakes in .cupcake/repeated-mistakes.txt and gives the model the
    whole list every time, even when no eval file is left.

        [settings.eval_feedback]
        enabled = true                                  # the default once the table is written
        dir = "logs/evals"                              # relative to the project root
        events = ["UserPromptSubmit", "SessionStart"]   # events whose context carries the findings
        blocking = false                                # true: major integration issues stop Write/Edit

    The fields read from the eval's JSON object are framework_compliance ("warn" or "fail"),
    scope_assessment ("moderate" or "sprawling"), repeated_mistakes (a string, or a list of strings;
    "none" is ignored), integration_quality ("major_issues") and eval_notes. A malformed eval is
    skipped and the next newest is used. The skip is noted for the audit trail, and the agent is
    never shown an error.

    Rule: The findings reach the model

        Background:
            Given the project policy:
                """
                [settings.eval_feedback]
                enabled = true
                dir = "logs/evals"
                """

        Scenario: The newest eval's findings, word for word as seed 004 writes them
            Given the evaluator wrote "eval-03-approval-queue.json":
                """
                {
                  "feature": "03-approval-queue",
                  "framework_compliance": "fail",
                  "scope_assessment": "moderate",
                  "integration_quality": "major_issues",
                  "repeated_mistakes": "isApproved filter omitted in listing queries",
                  "test_files_touched": true,
                  "eval_notes": "ApprovalList is a server component with an onClick handler."
                }
                """
            When the user submits the prompt "Build feature 04-notifications"
            Then the model is given the context:
                """
                ## Quality Gate Feedback (from automated eval of prior features)
                ⚠ FRAMEWORK COMPLIANCE: fail. Update roadmap to ✅ after completion. Add Agents.md round entry. Match spec frontmatter exactly.
                ⚠ SCOPE: Previous feature had scope creep (moderate). Only modify files directly required by this feature's spec. Do not introduce pages, routes, or components not in the spec.
                🔴 REPEATED MISTAKE: isApproved filter omitted in listing queries — This pattern has occurred in prior features. Check your implementation specifically for this issue before committing.
                🔴 INTEGRATION: Previous feature had major integration issues. Verify server/client component boundaries. No event handlers on server components. No missing authorization filters.
                📋 EVAL NOTES: ApprovalList is a server component with an onClick handler.
                ## KNOWN REPEATED MISTAKES (from prior features in this campaign — do NOT repeat these):
                - isApproved filter omitted in listing queries
                """
            And the cumulative list of repeated mistakes holds:
                """
                isApproved filter omitted in listing queries
                """

        Scenario: When a session starts, too
            Given the evaluator wrote "eval-01-login.json":
                """
                {"framework_compliance": "warn", "scope_assessment": "focused", "integration_quality": "clean", "repeated_mistakes": "none"}
                """
            When a session starts
            Then the model is given the context:
                """
                ## Quality Gate Feedback (from automated eval of prior features)
                ⚠ FRAMEWORK COMPLIANCE: warn. Update roadmap to ✅ after completion. Add Agents.md round entry. Match spec frontmatter exactly.
                """
            And there is no cumulative list of repeated mistakes

        Scenario: An eval with nothing to report adds nothing
            Given the evaluator wrote "eval-02-profile.json":
                """
                {"framework_compliance": "pass", "scope_assessment": "focused", "integration_quality": "clean", "repeated_mistakes": "none", "eval_notes": ""}
                """
            When the user submits the prompt "Build the next feature"
            Then Cupcake prints nothing
            And there is no cumulative list of repeated mistakes

        Scenario: No eval yet: nothing is injected and nothing is written
            When the user submits the prompt "Build the first feature"
            Then Cupcake prints nothing
            And there is no cumulative list of repeated mistakes

        Scenario: The eval of an earlier feature is still used (the evaluator runs behind the builder)
            Given the evaluator wrote "eval-01-login.json":
                """
                {"feature": "01-login", "eval_notes": "Login form lacks rate limiting."}
                """
            And the evaluator wrote "eval-02-profile.json":
                """
                {"feature": "02-profile", "eval_notes": "Avatar upload skips the size check."}
                """
            When the user submits the prompt "Build feature 04-notifications"
            Then the model is given the context:
                """
                ## Quality Gate Feedback (from automated eval of prior features)
                📋 EVAL NOTES: Avatar upload skips the size check.
                """

        Scenario: Newest means last modified, not last by name; campaign summaries are not evals
            Given the evaluator wrote "eval-09-search.json":
                """
                {"eval_notes": "from feature 09"}
                """
            And the evaluator wrote "eval-02-profile.json":
                """
                {"eval_notes": "from feature 02, evaluated again"}
                """
            And the evaluator wrote "eval-campaign-summary.json":
                """
                {"eval_notes": "campaign summary: 5 evals"}
                """
            When the user submits the prompt "Build the next feature"
            Then the model is given the context:
                """
                ## Quality Gate Feedback (from automated eval of prior features)
                📋 EVAL NOTES: from feature 02, evaluated again
                """

        Scenario: Three known mistakes and a repeat of one of them: the list still holds three
            Given the cumulative list of repeated mistakes holds:
                """
                isApproved filter omitted in listing queries
                Server component with an event handler
                Test that passes without testing the contract
                """
            And the evaluator wrote "eval-04-notifications.json":
                """
                {"repeated_mistakes": "  Server component with an event handler  "}
                """
            When the user submits the prompt "Build feature 05-search"
            Then the model is given the context:
                """
                ## Quality Gate Feedback (from automated eval of prior features)
                🔴 REPEATED MISTAKE: Server component with an event handler — This pattern has occurred in prior features. Check your implementation specifically for this issue before committing.
                ## KNOWN REPEATED MISTAKES (from prior features in this campaign — do NOT repeat these):
                - isApproved filter omitted in listing queries
                - Server component with an event handler
                - Test that passes without testing the contract
                """
            And the cumulative list of repeated mistakes holds:
                """
                isApproved filter omitted in listing queries
                Server component with an event handler
                Test that passes without testing the contract
                """

        Scenario: A mistake is new unless the very same text is listed (not a part of a longer one)
            Given the cumulative list of repeated mistakes holds:
                """
                Missing isApproved filter in the admin queries
                """
            And the evaluator wrote "eval-05-search.json":
                """
                {"repeated_mistakes": ["isApproved filter", "none", "", "Missing isApproved filter in the admin queries"]}
                """
            When the user submits the prompt "Build feature 06"
            Then the cumulative list of repeated mistakes holds:
                """
                Missing isApproved filter in the admin queries
                isApproved filter
                """

        Scenario: The cumulative list is given even when no eval file is left
            Given the cumulative list of repeated mistakes holds:
                """
                Server component with an event handler
                """
            When the user submits the prompt "Build the next feature"
            Then the model is given the context:
                """
                ## KNOWN REPEATED MISTAKES (from prior features in this campaign — do NOT repeat these):
                - Server component with an event handler
                """

        Scenario Outline: A malformed eval is skipped: the next newest is used, and the skip is noted
            Given the evaluator wrote "eval-01-login.json":
                """
                {"eval_notes": "from feature 01"}
                """
            And the evaluator wrote "eval-02-profile.json":
                """
                <content>
                """
            When the user submits the prompt "Build the next feature"
            Then the model is given the context:
                """
                ## Quality Gate Feedback (from automated eval of prior features)
                📋 EVAL NOTES: from feature 01
                """
            And the user is told nothing
            And Cupcake noted for the audit trail "skipped logs/evals/eval-02-profile.json: <why>"

            Examples:
                | content                              | why                            |
                | {"framework_compliance": "fail",     | not valid JSON                 |
                | ["framework_compliance", "fail"]     | not a JSON object (a list)     |
                | framework_compliance: fail           | not valid JSON                 |

        Scenario: Other events are left alone: the evals are not even read
            Given the evaluator wrote "eval-01-login.json":
                """
                {"eval_notes": "from feature 01"}
                """
            When the agent asks to run "ls"
            Then Cupcake prints nothing
            And Cupcake did not read the evals

        Scenario: Long findings are cut to the client's limit, with a note
            Given the evaluator wrote an eval whose notes are 30000 characters long
            When the user submits the prompt "Build the next feature"
            Then the model is shown at most 10000 characters
            And the model is shown a note that "characters cut by Cupcake"

    Scenario Outline: Turned off, or never turned on: nothing is injected and nothing is written
        Given the project policy:
            """
            <settings>

            [[policy]]
            name = "Style"
            hook_event = "UserPromptSubmit"
            action = { type = "inject_context", text = "Follow STYLE.md" }
            """
        And the evaluator wrote "eval-03-approval-queue.json":
            """
            {"framework_compliance": "fail", "repeated_mistakes": "isApproved filter omitted"}
            """
        When the user submits the prompt "Build feature 04"
        Then the model is given the context:
            """
            Follow STYLE.md
            """
        And there is no cumulative list of repeated mistakes

        Examples:
            | settings                                    |
            | [settings.eval_feedback]\nenabled = false   |
            | [settings]\nfail_mode = "open"              |

    Rule: Phase 2: with blocking = true, major integration issues stop Write and Edit

        Background:
            Given the project policy:
                """
                [settings.eval_feedback]
                blocking = true

                [[policy]]
                name = "Scaffolding is fine"
                matcher = "Write"
                conditions = [{ type = "filepath_regex", value = "^scaffold/" }]
                action = { type = "approve", reason = "scaffolding" }
                """
            And the evaluator wrote "eval-03-approval-queue.json":
                """
                {"integration_quality": "major_issues", "eval_notes": "ApprovalList is a server component with an onClick handler."}
                """

        Scenario: A write is blocked with the findings, before any policy's approve
            When the agent asks to write "scaffold/page.tsx" with:
                """
                export default function Page() {}
                """
            Then the tool call is denied with:
                """
                Operation blocked: Quality gate: the latest evaluation (logs/evals/eval-03-approval-queue.json) found major integration issues. Writing and editing files stays blocked until a newer evaluation clears them. Findings:
                🔴 INTEGRATION: Previous feature had major integration issues. Verify server/client component boundaries. No event handlers on server components. No missing authorization filters.
                📋 EVAL NOTES: ApprovalList is a server component with an onClick handler.
                """

        Scenario: An edit is blocked too, but reading and running commands are not
            When the agent asks to edit "src/ApprovalList.tsx" replacing "onClick" with "onSubmit"
            Then the tool call is denied
            When the agent asks to run "npm test"
            Then Cupcake prints nothing

        Scenario: A Bash command that changes a project file is stopped too
            Cupcake reads the command as the shell would: the file it would change is what counts,
            however it is written. Commands that change no project file still run.
            When the agent asks to run "sed -i 's/onClick/onSubmit/' src/ApprovalList.tsx"
            Then the tool call is denied
            And the model is shown a note that "This command (sed -i) would change src/ApprovalList.tsx."
            When the agent asks to run "cd src && echo 'export {}' > Appro''valList.tsx"
            Then the tool call is denied
            When the agent asks to run "npm test > /tmp/test.log 2>&1"
            Then Cupcake prints nothing

        Scenario: A newer eval without major issues lifts the gate
            Given the evaluator wrote "eval-03-approval-queue-fixed.json":
                """
                {"integration_quality": "clean"}
                """
            When the agent asks to edit "src/ApprovalList.tsx" replacing "onClick" with "onSubmit"
            Then Cupcake prints nothing

    Scenario: Without blocking = true, major integration issues are advice only
        Given the project policy:
            """
            [settings.eval_feedback]
            enabled = true
            """
        And the evaluator wrote "eval-03-approval-queue.json":
            """
            {"integration_quality": "major_issues"}
            """
        When the agent asks to edit "src/ApprovalList.tsx" replacing "onClick" with "onSubmit"
        Then Cupcake prints nothing

    Scenario Outline: A mistake in [settings.eval_feedback] is an error that names it
        Given the project policy:
            """
            [settings.eval_feedback]
            <line>
            """
        When the user submits the prompt "hello"
        Then the answer is only a note to the user saying "cupcake.toml:2: settings: <message>"

        Examples:
            | line                    | message |
            | events = ["Stop"]       | `eval_feedback.events`: Claude Code passes no context to the model on Stop |
            | events = ["SessionStrt"] | `eval_feedback.events`: unknown hook_event \"SessionStrt\" (did you mean \"SessionStart\"?) |
            | enabeld = true          | unknown key `eval_feedback.enabeld` (did you mean \"enabled\"?) |
            | blocking = "yes"        | `eval_feedback.blocking` must be true or false, not a string (\"yes\") |
            | dir = ""                | `eval_feedback.dir` must name a directory |

    Scenario: With the audit trail on, a skipped eval is written down there
        Given the project policy:
            """
            [settings]
            audit_logging = true

            [settings.eval_feedback]
            dir = "logs/evals"
            """
        And the evaluator wrote "eval-02-profile.json":
            """
            {"framework_compliance": "fail",
            """
        When the user submits the prompt "Build the next feature"
        Then the user is told nothing
        And the last audit record notes "skipped logs/evals/eval-02-profile.json: not valid JSON"
