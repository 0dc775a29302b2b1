"""600 · The two passes become one transport-neutral answer, with seed 000's exact texts, through a
fake context and through ``prepare`` itself."""

from __future__ import annotations

from cupcake.pipeline.context import HardDecision
from cupcake.pipeline.response import APPROVE, ASK, BLOCK, NONE, SOFT
from cupcake.systems.response_preparation import ResponsePreparation, prepare


def test_a_block_leads_and_the_soft_messages_follow():
    answer = prepare(HardDecision("block", "Use trash.", "no-rm"), ["Careful."], [])
    assert (answer.decision, answer.text) == (
        BLOCK,
        "Operation blocked: Use trash.\n\nAdditional policy feedback:\n\u2022 Careful.",
    )


def test_soft_messages_alone_ask_the_agent_to_address_them():
    answer = prepare(None, ["Careful.", "Slowly."], ["House rules."])
    assert answer.decision == SOFT
    assert answer.text == (
        "Policy feedback found:\n\u2022 Careful.\n\u2022 Slowly.\n\nPlease address these issues before proceeding."
    )
    assert answer.context == "House rules."


def test_approve_and_ask_carry_their_reason_and_the_soft_text():
    approve = prepare(HardDecision("approve", "Fine.", "p"), [], [])
    ask = prepare(HardDecision("ask", "Sure?", "p"), ["Careful."], [])
    assert (approve.decision, approve.reason, approve.soft_text) == (APPROVE, "Fine.", "")
    assert (ask.decision, ask.reason) == (ASK, "Sure?")
    assert ask.soft_text.startswith("Policy feedback found:")
    assert prepare(None, [], []).decision == NONE


def test_a_long_command_output_is_cut_in_its_middle_to_fit_the_agents_cap():
    output = "FIRST LINE\n" + "x" * 5000 + "\nSUMMARY: 3 failed"
    answer = prepare(HardDecision("block", output, "tests"), [], [], outputs=[output], cap=1000)
    assert len(answer.text) <= 1000
    assert "FIRST LINE" in answer.text and answer.text.endswith("SUMMARY: 3 failed")
    assert "characters cut by Cupcake" in answer.text


def test_the_system_prepares_from_the_context_and_other_blocks_come_first(fakes):
    ctx = fakes.context("", tool_input={"command": "rm cupcake.toml"})
    ctx.hard = HardDecision("block", "Use trash.", "no-rm")
    ctx.other_blocks.append(("Cupcake self-protection", "this changes a policy file"))
    ctx.soft.append("Careful.")
    system = ResponsePreparation()
    assert system.should_process(ctx)
    system.process(ctx)
    assert ctx.response.text == (
        "Operation blocked: Use trash.\n\nAdditional policy feedback:\n"
        "\u2022 this changes a policy file\n\u2022 Careful."
    )


def test_without_policies_only_a_self_protection_block_is_prepared(fakes):
    ctx = fakes.context(None)
    assert not ResponsePreparation().should_process(ctx)
    ctx.hard = HardDecision("block", "guarded", "Cupcake self-protection")
    assert ResponsePreparation().should_process(ctx)
