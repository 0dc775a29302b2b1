Feature: Complete feedback, all at once
    When an operation triggers soft feedback and a hard block, Cupcake tells the agent the
    blocking reason first and every other finding after it, so the agent can fix everything in
    one pass (seed 000). Soft feedback alone still stops the tool call: the agent is asked to
    address it before proceeding. The texts are exact: "•" bullets, lines joined with a newline.

    Scenario: Example 1, a security block and a style finding
        Given the project policy:
            """
            [[policy]]
            name = "No console.log in production"
            action = { type = "block_with_feedback", feedback_message = "Remove console statements" }

            [[policy]]
            name = "Use design system"
            action = { type = "provide_feedback", message = "Use <Button> component" }
            """
        When the agent asks to run "ls"
        Then the tool call is denied with:
            """
            Operation blocked: Remove console statements

            Additional policy feedback:
            • Use <Button> component
            """

    Scenario: Example 2, several soft findings and no block
        Given the project policy:
            """
            [[policy]]
            name = "Component naming"
            action = { type = "provide_feedback", message = "Component should be PascalCase" }

            [[policy]]
            name = "Import ordering"
            action = { type = "provide_feedback", message = "Group imports by type" }

            [[policy]]
            name = "File size"
            action = { type = "provide_feedback", message = "File exceeds 500 lines" }
            """
        When the agent asks to run "ls"
        Then the tool call is denied with:
            """
            Policy feedback found:
            • Component should be PascalCase
            • Group imports by type
            • File exceeds 500 lines

            Please address these issues before proceeding.
            """

    Scenario: Example 3, a critical block with other feedback
        Given the project policy:
            """
            [[policy]]
            name = "Use design system"
            matcher = "Write|Edit"
            conditions = [{ type = "file_content_regex", value = "<button" }]
            action = { type = "provide_feedback", message = "Use <Button> instead of <button>" }

            [[policy]]
            name = "Prevent secret exposure"
            conditions = [{ type = "file_content_regex", value = "api_key\\s*=\\s*[\"']\\w+" }]
            action = {
              type = "block_with_feedback",
              feedback_message = "CRITICAL: Exposed API key detected! Remove immediately."
            }

            [[policy]]
            name = "Typed parameters"
            matcher = "Write|Edit"
            conditions = [{ type = "filepath_regex", value = "\\.ts$" }]
            action = { type = "provide_feedback", message = "Add TypeScript types to function parameters" }
            """
        When the agent asks to write "src/app.ts" with:
            """
            const api_key = "abc123";
            export const ok = (x) => <button>{x}</button>;
            """
        Then the tool call is denied with:
            """
            Operation blocked: CRITICAL: Exposed API key detected! Remove immediately.

            Additional policy feedback:
            • Use <Button> instead of <button>
            • Add TypeScript types to function parameters
            """

    Scenario: A block with no other feedback
        Given the project policy:
            """
            [[policy]]
            name = "Production config"
            matcher = "Edit|Write"
            conditions = [{ type = "filepath_regex", value = "^config/production" }]
            action = { type = "block_with_feedback", feedback_message = "Cannot edit production config files without approval\n\nContact your team lead for access." }
            """
        When the agent asks to edit "config/production.yml" replacing "a" with "b"
        Then the tool call is denied with:
            """
            Operation blocked: Cannot edit production config files without approval

            Contact your team lead for access.
            """

    Scenario: A very long finding is cut to the client's limit, keeping its first line and its tail
        Given the project policy with a 30000-character feedback message
        When the agent asks to run "ls"
        Then the model is shown at most 10000 characters
        And the model is shown a note that "characters cut by Cupcake"
        And the model is shown the last line of the message
