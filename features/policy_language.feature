Feature: The policy language
    A policy names the hook event it applies to (PreToolUse when omitted), a matcher on the tool
    name, conditions that must all hold, and one action. Regex conditions use Python's re.search:
    unanchored unless the pattern anchors itself. These are the rules of seed 003's table that
    need no command to run.

    Scenario Outline: "Can't delete file xyz"
        Given the project policy:
            """
            [[policy]]
            name = "Keep xyz"
            hook_event = "PreToolUse"
            matcher = "Bash"
            conditions = [{ type = "command_regex", value = "rm.*xyz" }]
            action = { type = "block_with_feedback", feedback_message = "xyz must never be deleted" }
            """
        When the agent asks to run "<command>"
        Then the tool call is <outcome>

        Examples:
            | command           | outcome |
            | rm -f data/xyz.db | denied  |
            | rm -f data/abc.db | let through |

    Scenario Outline: "Must use <Button> not <button>"
        Given the project policy:
            """
            [[policy]]
            name = "Design system buttons"
            matcher = "Write|Edit"
            conditions = [{ type = "file_content_regex", value = "<button" }]
            action = { type = "block_with_feedback", feedback_message = "Use <Button> from @/ui, not <button>" }
            """
        When the agent asks to write "src/Page.tsx" with:
            """
            export const Page = () => <element> onClick={go}>Go</element>;
            """
        Then the tool call is <outcome>

        Examples:
            | element | outcome     |
            | <button | denied      |
            | <Button | let through |

    Scenario Outline: "Reusable components go in components/"
        Given the project policy:
            """
            [[policy]]
            name = "Components live in components/"
            matcher = "Write"
            conditions = [{ type = "filepath_regex", value = "^(?!components/)" }]
            action = { type = "block_with_feedback", feedback_message = "Put reusable components in components/" }
            """
        When the agent asks to write "<path>" with:
            """
            export const Card = () => null;
            """
        Then the tool call is <outcome>

        Examples:
            | path                  | outcome     |
            | src/Card.tsx          | denied      |
            | components/Card.tsx   | let through |

    Scenario: An Edit is checked on the text it puts in, a legacy MultiEdit on every edit
        Given the project policy:
            """
            [[policy]]
            name = "No debugger statements"
            matcher = "Edit|MultiEdit"
            conditions = [{ type = "file_content_regex", value = "\\bdebugger\\b" }]
            action = { type = "block_with_feedback", feedback_message = "Remove the debugger statement" }
            """
        When the agent uses the tool "MultiEdit" with:
            """
            {"file_path": "src/a.js", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "debugger;"}]}
            """
        Then the tool call is denied

    Scenario Outline: The matcher is a whole match on the tool name
        Given the project policy:
            """
            [[policy]]
            name = "Watch these tools"
            matcher = "<matcher>"
            action = { type = "provide_feedback", message = "seen" }
            """
        When the agent uses the tool "<tool>" with:
            """
            {}
            """
        Then the tool call is <outcome>

        Examples:
            | matcher          | tool                       | outcome     |
            | Bash             | Bash                       | denied      |
            | Bash             | BashOutput                 | let through |
            | Write\|Edit      | Edit                       | denied      |
            | mcp__github__.*  | mcp__github__create_issue  | denied      |
            | mcp__github__.*  | mcp__gitlab__create_issue  | let through |
            | *                | WebFetch                   | denied      |

    Scenario: A generic field condition reads any value of the event
        Given the project policy:
            """
            [[policy]]
            name = "No fetching from pastebins"
            matcher = "WebFetch"
            conditions = [{ type = "field", path = "tool_input.url", regex = "^https?://(www\\.)?pastebin\\.com/" }]
            action = { type = "block_with_feedback", feedback_message = "Pastebins are off limits" }
            """
        When the agent uses the tool "WebFetch" with:
            """
            {"url": "https://pastebin.com/raw/abc", "prompt": "read it"}
            """
        Then the tool call is denied with:
            """
            Operation blocked: Pastebins are off limits
            """

    Scenario Outline: Conditions combine with not and any
        Given the project policy:
            """
            [[policy]]
            name = "Only the release script may push tags"
            matcher = "Bash"
            conditions = [
              { any = [{ type = "command_regex", value = "git push .*--tags" }, { type = "command_regex", value = "git push origin v\\d" }] },
              { not = { type = "field", path = "permission_mode", equals = "plan" } },
            ]
            action = { type = "block_with_feedback", feedback_message = "Tags are pushed by scripts/release.sh" }
            """
        When the agent asks to run "<command>"
        Then the tool call is <outcome>

        Examples:
            | command                 | outcome     |
            | git push origin --tags  | denied      |
            | git push origin v1.2.0  | denied      |
            | git push origin main    | let through |
