Feature: How Claude Code is answered, event by event
    Every decision is JSON on stdout with exit code 0; when there is nothing to say, Cupcake
    prints nothing. What each event can carry differs: a PreToolUse call is denied, a PostToolUse
    result is flagged with decision "block" (the tool already ran), a prompt gets context, events
    that cannot block only tell the user (systemMessage, which the model never sees). The payloads
    are the ones the real client sent; the answers are the exact bytes Cupcake prints.

    The policy actions below: "soft" gives the message "lint", "block" the reason "stop",
    "approve" the reason "trusted", "ask" the reason "a person decides".

    Scenario Outline: The answer to each event, for each kind of decision
        Given a policy on "<event>" whose action is <action>
        When Claude Code sends the captured "<payload>" event
        Then Cupcake answers <answer>

        Examples:
            | event              | payload                 | action  | answer |
            | PreToolUse         | PreToolUse.Bash         | soft    | {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."}} |
            | PreToolUse         | PreToolUse.Bash         | block   | {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Operation blocked: stop"}} |
            | PreToolUse         | PreToolUse.Bash         | approve | {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"trusted"}} |
            | PreToolUse         | PreToolUse.Bash         | ask     | {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"a person decides"}} |
            | PermissionRequest  | PermissionRequest.Bash  | soft    | nothing |
            | PermissionRequest  | PermissionRequest.Bash  | block   | {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Operation blocked: stop"}}} |
            | PermissionRequest  | PermissionRequest.Bash  | approve | {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}} |
            | PermissionRequest  | PermissionRequest.Bash  | ask     | nothing |
            | PostToolUse        | PostToolUse.Bash        | soft    | {"decision":"block","reason":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."} |
            | PostToolUse        | PostToolUse.Bash        | block   | {"decision":"block","reason":"Operation blocked: stop"} |
            | PostToolUseFailure | PostToolUseFailure.Bash | soft    | {"decision":"block","reason":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."} |
            | PostToolUseFailure | PostToolUseFailure.Bash | block   | {"decision":"block","reason":"Operation blocked: stop"} |
            | UserPromptSubmit   | UserPromptSubmit        | soft    | {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."}} |
            | UserPromptSubmit   | UserPromptSubmit        | block   | {"decision":"block","reason":"Operation blocked: stop"} |
            | Stop               | Stop                    | soft    | {"decision":"block","reason":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."} |
            | Stop               | Stop                    | block   | {"decision":"block","reason":"Operation blocked: stop"} |
            | SubagentStop       | SubagentStop            | soft    | {"decision":"block","reason":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."} |
            | SubagentStop       | SubagentStop            | block   | {"decision":"block","reason":"Operation blocked: stop"} |
            | SessionStart       | SessionStart            | soft    | {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."}} |
            | SessionStart       | SessionStart            | block   | {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Operation blocked: stop"},"systemMessage":"Operation blocked: stop"} |
            | Notification       | Notification            | soft    | {"systemMessage":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."} |
            | Notification       | Notification            | block   | {"systemMessage":"Operation blocked: stop"} |
            | PreCompact         | PreCompact              | soft    | {"systemMessage":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."} |
            | PreCompact         | PreCompact              | block   | {"systemMessage":"Operation blocked: stop"} |
            | SessionEnd         | SessionEnd              | soft    | {"systemMessage":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."} |
            | SessionEnd         | SessionEnd              | block   | {"systemMessage":"Operation blocked: stop"} |
            | SubagentStart      | SubagentStart           | soft    | {"systemMessage":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."} |
            | SubagentStart      | SubagentStart           | block   | {"systemMessage":"Operation blocked: stop"} |
            | PostToolBatch      | PostToolBatch           | soft    | {"systemMessage":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."} |
            | PostToolBatch      | PostToolBatch           | block   | {"systemMessage":"Operation blocked: stop"} |

    Scenario: A Stop hook already continuing gets soft feedback only as a note (no loops)
        Given a policy on "Stop" whose action is soft
        When Claude Code sends the captured "Stop" event with stop_hook_active true
        Then Cupcake answers {"systemMessage":"Policy feedback found:\n• lint\n\nPlease address these issues before proceeding."}

    Scenario: A block on Stop keeps the agent working even when a stop hook is already active
        Given a policy on "Stop" whose action is block
        When Claude Code sends the captured "Stop" event with stop_hook_active true
        Then Cupcake answers {"decision":"block","reason":"Operation blocked: stop"}

    Scenario: An event Cupcake does not know is accepted and answered with nothing
        Given a policy on "PreToolUse" whose action is block
        When Claude Code sends the "FutureEvent" event:
            """
            {"session_id": "s1", "hook_event_name": "FutureEvent", "brand_new_field": {"x": 1}, "permission_mode": "hyperdrive"}
            """
        Then Cupcake prints nothing

    Scenario: New fields and values in a tool event are accepted
        Given a policy on "PreToolUse" whose action is block
        When Claude Code sends the "PreToolUse" event:
            """
            {"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls", "sandbox": {"level": 3}}, "permission_mode": "hyperdrive", "effort": {"level": "max"}, "future": [1, 2]}
            """
        Then Cupcake answers {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Operation blocked: stop"}}

    Scenario: --event wins over the payload's hook_event_name
        Given a policy on "PostToolUse" whose action is block
        When Claude Code sends the captured "PreToolUse.Bash" event as "PostToolUse"
        Then Cupcake answers {"decision":"block","reason":"Operation blocked: stop"}
