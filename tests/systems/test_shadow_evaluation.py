"""950 · The shadow evaluation in a fake context: it runs only after an evaluated answer, within the
deadline, and reads the enforced decision the way the shadow log records it."""

from __future__ import annotations

import time

from cupcake.pipeline.context import HardDecision
from cupcake.pipeline.response import BLOCK, NONE, SOFT, Response
from cupcake.pipeline.runner import Failure
from cupcake.systems.shadow_evaluation import ShadowEvaluation, _enforced
from tests.fakes import BLOCK as BLOCK_ACTION
from tests.fakes import policy


def test_it_runs_only_after_an_evaluated_answer_and_before_the_deadline(fakes):
    ctx = fakes.context("", tool_input={"command": "ls"})
    system = ShadowEvaluation()
    assert not system.should_process(ctx)  # no answer yet
    ctx.response = Response(NONE)
    assert system.should_process(ctx)
    ctx.deadline = time.monotonic() - 1
    assert not system.should_process(ctx)
    ctx.deadline = None
    ctx.failures.append(Failure("feedback_collection", "broke", True))
    assert not system.should_process(ctx)
    assert not system.should_process(fakes.context(None))


def test_the_enforced_decision_in_the_logs_words(fakes):
    ctx = fakes.context(policy("no-rm", BLOCK_ACTION), tool_input={"command": "rm x"})
    ctx.matched = [0]
    ctx.hard = HardDecision("block", "Use trash.", "no-rm")
    ctx.response = Response(BLOCK)
    assert _enforced(ctx, ctx.policies) == {"decision": "block", "policy": "no-rm", "matched": ["no-rm"]}
    ctx.hard, ctx.response = None, Response(SOFT)
    assert _enforced(ctx, ctx.policies)["decision"] == "feedback"
    ctx.response = Response(NONE, context="House rules.")
    assert _enforced(ctx, ctx.policies)["decision"] == "context"


def test_a_decision_taken_before_the_policies_is_not_compared(fakes):
    ctx = fakes.context("", tool_input={"command": "rm cupcake.toml"})
    ctx.hard = HardDecision("block", "guarded", "Cupcake self-protection")
    ctx.response = Response(BLOCK)
    assert _enforced(ctx, ctx.policies) is None
