"""One readable line per policy, whatever it uses (even an action this version does not know)."""

from __future__ import annotations

from cupcake.init.review import diff_lines, summary_lines

POLICIES = """
[[policy]]
name = "Tests first"
matcher = "Bash"
conditions = [{ any = [{ type = "command_regex", value = "^git commit" }, { type = "command_regex", value = "^git push" }] }]
action = { type = "run_command", command = "npm test", on_failure = "feedback" }

[[policy]]
name = "Session notes"
hook_event = "SessionStart"
action = { type = "inject_context", file = "NOTES.md" }

[[policy]]
name = "Remember the edit"
hook_event = "PostToolUse"
action = { type = "update_state", key = "edited" }

[[policy]]
name = "Docs are fine"
hook_event = "PermissionRequest"
conditions = [{ type = "field", path = "tool_input.dry_run", equals = true }]
action = { type = "approve" }
"""


def test_one_line_per_policy():
    assert summary_lines(POLICIES) == [
        "  1. Tests first: PreToolUse Bash; if (command ~ /^git commit/ or command ~ /^git push/); "
        "run `npm test`, on failure: feedback",
        "  2. Session notes: SessionStart; always; context from the file NOTES.md",
        "  3. Remember the edit: PostToolUse (every tool); always; update_state (key=edited)",
        "  4. Docs are fine: PermissionRequest (every tool); if tool_input.dry_run = true; approve",
    ]


def test_a_long_message_is_cut_with_an_ellipsis():
    text = '[[policy]]\nname = "x"\naction = { type = "provide_feedback", message = "' + "word " * 40 + '" }\n'
    (line,) = summary_lines(text)
    assert line.endswith('…"') and len(line) < 120


def test_the_diff_names_both_versions():
    assert diff_lines("a = 1\n", "a = 2\n", "cupcake.toml")[:2] == [
        "--- cupcake.toml (now)",
        "+++ cupcake.toml (proposed)",
    ]
    assert diff_lines(None, "a = 2\n", "cupcake.toml") == []
