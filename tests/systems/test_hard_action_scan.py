"""When self-protection blocks, the policies' own block leads the text, and nothing a policy says can
loosen the decision (what a hostile agent would try: a call that both a team rule and self-protection
stop, under policies that approve, ask or run a check first). Through the installed executable, and the
system alone in a fake context (at the end)."""

from __future__ import annotations

GUARD = "Operation blocked: Cupcake self-protection: "


def _deny_reason(answer) -> str:
    assert answer.code == 0, answer
    assert answer.specific["permissionDecision"] == "deny", answer
    return answer.specific["permissionDecisionReason"]


def test_an_approve_first_in_list_order_cannot_let_a_protected_write_through(project):
    project.write_policy(
        '[[policy]]\nname = "Trust echo"\nmatcher = "Bash"\nconditions = [{ type = "command_regex", value = "^echo" }]\n'
        'action = { type = "approve", reason = "echo is harmless" }\n\n'
        '[[policy]]\nname = "No redirects"\nmatcher = "Bash"\nconditions = [{ type = "command_regex", value = ">" }]\n'
        'action = { type = "block_with_feedback", feedback_message = "No redirects." }\n'
    )
    reason = _deny_reason(project.send_process(project.tool_call("Bash", {"command": "echo x > cupcake.toml"})))
    assert reason.startswith(GUARD), reason  # the approve came first: it is pre-empted, and names nothing
    assert "Additional policy feedback" not in reason


def test_an_ask_cannot_turn_a_protected_write_into_a_question(project):
    project.write_policy(
        '[[policy]]\nname = "Ask about rm"\nmatcher = "Bash"\nconditions = [{ type = "command_regex", value = "rm" }]\n'
        'action = { type = "ask", reason = "Sure?" }\n'
    )
    reason = _deny_reason(project.send_process(project.tool_call("Bash", {"command": "rm cupcake.toml"})))
    assert reason.startswith(GUARD)


def test_a_policy_block_leads_and_self_protection_follows_word_for_word(project):
    project.write_policy(
        '[[policy]]\nname = "No rm"\nmatcher = "Bash"\nconditions = [{ type = "command_regex", value = "^rm " }]\n'
        'action = { type = "block_with_feedback", feedback_message = "Use trash instead." }\n'
    )
    alone = project.send_process(project.tool_call("Bash", {"command": "rm notes.txt"}))
    assert _deny_reason(alone) == "Operation blocked: Use trash instead."
    project.write_policy(project.root.joinpath("cupcake.toml").read_text().replace("^rm ", "^nothing"))
    guard = _deny_reason(project.send_process(project.tool_call("Bash", {"command": "rm cupcake.toml"})))
    project.write_policy(project.root.joinpath("cupcake.toml").read_text().replace("^nothing", "^rm "))
    both = _deny_reason(project.send_process(project.tool_call("Bash", {"command": "rm cupcake.toml"})))
    assert both == (
        "Operation blocked: Use trash instead.\n\nAdditional policy feedback:\n\u2022 "
        + guard.removeprefix("Operation blocked: ")
    )


def test_no_check_runs_once_self_protection_blocks(project):
    marker = project.root / "check-ran"
    script = project.bin / "lint-it"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexit 0\n")
    script.chmod(0o755)
    project.write_policy(
        '[[policy]]\nname = "Lint first"\nmatcher = "Bash"\n'
        'action = { type = "run_command", command = "lint-it", on_failure_feedback = "lint failed" }\n\n'
        '[[policy]]\nname = "No rm"\nmatcher = "Bash"\nconditions = [{ type = "command_regex", value = "^rm " }]\n'
        'action = { type = "block_with_feedback", feedback_message = "Use trash instead." }\n'
    )
    reason = _deny_reason(project.send_process(project.tool_call("Bash", {"command": "rm cupcake.toml"})))
    assert reason.startswith(
        "Operation blocked: Use trash instead.\n\nAdditional policy feedback:\n\u2022 Cupcake self"
    )
    assert not marker.exists()
    project.send_process(project.tool_call("Bash", {"command": "ls"}))
    assert marker.exists()  # the check does run when nothing blocks first


def test_the_audit_record_names_both(project):
    import json

    project.write_policy(
        '[settings]\naudit_logging = true\n\n[[policy]]\nname = "No rm"\nmatcher = "Bash"\n'
        'conditions = [{ type = "command_regex", value = "^rm " }]\n'
        'action = { type = "block_with_feedback", feedback_message = "Use trash instead." }\n'
    )
    project.send_process(project.tool_call("Bash", {"command": "rm cupcake.toml"}))
    record = json.loads((project.root / ".cupcake" / "audit.log").read_text().splitlines()[-1])
    assert (record["policy"], record["also"], record["decision"]) == ("No rm", ["Cupcake self-protection"], "block")


# ## The system alone, in a fake context ############################################################


def test_the_first_hard_action_in_list_order_decides(fakes):
    from cupcake.systems.hard_action_scan import HardActionScan
    from tests.fakes import APPROVE, ASK, BLOCK, policy

    toml = policy("ask", ASK, "deploy") + policy("block", BLOCK, "deploy") + policy("approve", APPROVE, "deploy")
    ctx = fakes.context(toml, tool_input={"command": "deploy now"})
    ctx.matched = [0, 1, 2]
    system = HardActionScan()
    assert system.should_process(ctx)
    system.process(ctx)
    assert tuple(ctx.hard) == ("ask", "Sure?", "ask")


def test_a_custom_systems_block_before_the_scan_stands(fakes):
    from cupcake.systems.hard_action_scan import HardActionScan
    from tests.fakes import APPROVE, policy

    ctx = fakes.context(policy("approve", APPROVE, "deploy"), tool_input={"command": "deploy"})
    ctx.matched = [0]
    ctx.decide("block", "acme says no", "acme")
    HardActionScan().process(ctx)
    assert tuple(ctx.hard) == ("block", "acme says no", "acme")
    ctx.settings = dict(ctx.settings, self_protection=False)
    assert not HardActionScan().should_process(ctx)  # no policy could change a block


def test_self_protection_blocks_even_when_the_policies_could_not_be_evaluated(fakes):
    from cupcake.pipeline.runner import Failure
    from cupcake.systems.hard_action_scan import HardActionScan

    ctx = fakes.context("", tool="Write", tool_input={"file_path": str(fakes.root / "cupcake.toml"), "content": ""})
    ctx.failures.append(Failure("feedback_collection", "broke", True))
    assert HardActionScan().should_process(ctx)
    HardActionScan().process(ctx)
    assert ctx.hard.kind == "block" and ctx.hard.by == "Cupcake self-protection"
