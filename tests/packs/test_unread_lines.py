"""A pack rule on a Bash line Cupcake could not read to the end: its command condition is taken to hold
when the rule's program name could be in the part not read (a block, never a pass), and the block says
so first, with how to write the line, instead of naming a danger that may not be there."""

from __future__ import annotations

from cupcake.shell.limits import MAX_COMMANDS

# Past the reader's command bound; "k" (kubectl's short name) is in every "mkdir".
UNREAD_LINE = "; ".join(f"mkdir d{i}" for i in range(MAX_COMMANDS + 10))
NOT_READ = "Cupcake could not read all of this command (too many commands), and the part it could not read"


def _reason(project, command: str) -> str | None:
    answer = project.send_process(project.tool_call("Bash", {"command": command}))
    spec = answer.specific
    return spec["permissionDecisionReason"] if spec.get("permissionDecision") == "deny" else None


def test_a_rule_that_holds_only_on_the_unread_part_says_what_was_not_read(project):
    project.write_policy('imports = ["cupcake:recommended"]\n[settings]\nself_protection = false\n')
    reason = _reason(project, UNREAD_LINE)
    assert reason is not None and reason.startswith("Operation blocked: " + NOT_READ), reason
    assert "split it into shorter commands" in reason and "The rule: " in reason


def test_a_rule_the_line_really_breaks_keeps_its_own_message(project):
    project.write_policy('imports = ["cupcake:recommended"]\n[settings]\nself_protection = false\n')
    reason = _reason(project, "kubectl delete namespace staging")
    assert reason is not None and reason.startswith("Operation blocked: Deleting a namespace"), reason
    assert NOT_READ not in reason
