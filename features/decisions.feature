Feature: What the agent is told: allow, deny, approve, ask
    Cupcake walks the policy list twice: first it collects every soft message, then it takes the
    first hard action (block, approve or ask) as the decision. When nothing matches, Cupcake
    prints nothing and Claude Code's own permission flow goes on untouched.

    Background:
        Given the project policy:
            """
            [[policy]]
            name = "Never delete the data directory"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "rm\\s+-rf\\s+data" }]
            action = { type = "block_with_feedback", feedback_message = "The data directory holds the only copy of the fixtures" }

            [[policy]]
            name = "Formatting is always fine"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^black\\b" }]
            action = { type = "approve", reason = "formatting is safe" }

            [[policy]]
            name = "Prefer make targets"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^(black|pytest)\\b" }]
            action = { type = "provide_feedback", message = "Prefer `make fmt` and `make test`" }

            [[policy]]
            name = "Deploys need a person"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "^kubectl apply" }]
            action = { type = "ask", reason = "Deploying changes the cluster" }
            """

    Scenario: Nothing matches: Cupcake prints nothing
        When the agent asks to run "ls -la"
        Then Cupcake prints nothing

    Scenario: A block denies the tool call
        When the agent asks to run "rm -rf data"
        Then the tool call is denied with:
            """
            Operation blocked: The data directory holds the only copy of the fixtures
            """

    Scenario: Approve lets the call run, and soft feedback still reaches the model
        When the agent asks to run "black ."
        Then the tool call is allowed with the reason "formatting is safe"
        And the model is given the context:
            """
            Policy feedback found:
            • Prefer `make fmt` and `make test`

            Please address these issues before proceeding.
            """

    Scenario: Ask hands the decision to the person at the keyboard
        When the agent asks to run "kubectl apply -f deploy.yaml"
        Then the person is asked with the reason "Deploying changes the cluster"

    Scenario: Soft feedback alone stops the call until it is addressed
        When the agent asks to run "pytest -x"
        Then the tool call is denied with:
            """
            Policy feedback found:
            • Prefer `make fmt` and `make test`

            Please address these issues before proceeding.
            """
