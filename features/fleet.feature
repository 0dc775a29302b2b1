Feature: A fleet of machines
    A platform team looks after two hundred developers and their agents. The organisation's rules sit in
    one managed policy file on every machine, which no project or user file can weaken, and Cupcake's hooks
    are installed where each agent reads its managed settings. Every decision reaches the observability
    stack the team already runs, as an OpenTelemetry span that names the rule and its reason; a collector
    that is down loses nothing, and no tool call waits for it.

    Background:
        Given the organisation's collector is listening
        And the organisation's policy:
            """
            [[policy]]
            name = "no-prod-deploy"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "deploy.*--env prod" }]
            action = { type = "block_with_feedback", feedback_message = "Production deploys go through the release pipeline." }

            [telemetry]
            enabled = true
            endpoint = "$COLLECTOR"
            """

    Scenario: A project cannot switch off a rule of the organisation
        Given the project policy:
            """
            [settings]
            self_protection = false

            [[policy]]
            name = "we-know-what-we-do"
            matcher = "Bash"
            action = { type = "approve", reason = "this team deploys by hand" }
            """
        When the agent asks to run "./deploy.sh --env prod"
        Then the tool call is denied with:
            """
            Operation blocked: Production deploys go through the release pipeline.
            """

    Scenario: The platform team sees the decision in its collector, with the rule and the reason
        When the agent asks to run "./deploy.sh --env prod"
        And the user runs "cupcake export"
        Then the output says "nothing waits"
        And the collector has 1 decision, each once
        And the collector's span for "./deploy.sh --env prod" says:
            | attribute             | value                                                                |
            | cupcake.decision      | block                                                                |
            | cupcake.decided_by    | no-prod-deploy                                                       |
            | cupcake.reason        | Operation blocked: Production deploys go through the release pipeline. |
            | cupcake.event         | PreToolUse                                                           |
            | gen_ai.tool.name      | Bash                                                                 |
            | gen_ai.agent.name     | claude                                                               |

    Scenario: Decisions made while the collector is down arrive once it is back, each once
        Given the organisation's collector is down
        When the agent asks to run "ls"
        And the agent asks to run "./deploy.sh --env prod"
        And the user runs "cupcake export --retries 0"
        Then the output says "2 decisions still wait"
        When the organisation's collector comes back
        And the user runs "cupcake export"
        Then the output says "nothing waits"
        And the collector has 2 decisions, each once

    Scenario: A credential never sits in a policy file
        Given the project policy:
            """
            [telemetry]
            headers = { "x-honeycomb-team" = "team-key" }
            """
        When the user runs "cupcake validate"
        Then the output says "`x-honeycomb-team` names a credential"
        And the output says "set them in OTEL_EXPORTER_OTLP_HEADERS where the forwarder runs"

    Scenario: The platform team installs the hooks once, for every user and project of the machine
        When the user runs "cupcake sync --scope managed"
        Then the output says "managed-settings.d/cupcake.json (every user and project of this machine)"
        When the user runs "cupcake doctor"
        Then the doctor reports as ok "Cupcake's hook on all 11 events"
        And the doctor reports as ok "in service: 1 from"
        And the doctor reports as ok "no project or user file can remove or weaken them"
