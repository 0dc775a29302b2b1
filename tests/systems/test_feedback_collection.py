"""400 · Pass 1 through a fake context: every soft message and context of the matching policies, in
list order; the matched policies remembered for pass 2."""

from __future__ import annotations

from cupcake.systems.feedback_collection import FeedbackCollection
from tests.fakes import BLOCK, CONTEXT, SOFT, policy


def test_soft_messages_and_contexts_are_collected_in_list_order(fakes):
    toml = (
        policy("first", SOFT, "rm")
        + policy("context", CONTEXT, "rm")
        + policy("block", BLOCK, "rm")
        + policy("other", SOFT, "^ls")
    )
    ctx = fakes.context(toml, tool_input={"command": "rm -rf build"})
    system = FeedbackCollection()
    assert system.should_process(ctx)
    system.process(ctx)
    assert ctx.soft == ["Careful."]
    assert ctx.contexts == ["House rules."]
    assert ctx.matched == [0, 1, 2]  # the block waits for pass 2
    assert ctx.hard is None


def test_nothing_is_collected_without_policies_or_after_a_failure(fakes):
    from cupcake.pipeline.runner import Failure

    assert not FeedbackCollection().should_process(fakes.context(None))
    ctx = fakes.context(policy("first", SOFT, "rm"), tool_input={"command": "rm x"})
    ctx.failures.append(Failure("input_parse", "broken", True))
    assert not FeedbackCollection().should_process(ctx)


def test_a_policy_of_another_tool_or_event_does_not_match(fakes):
    toml = policy("edit", SOFT, "rm", matcher="Edit") + policy("post", SOFT, "rm", event="PostToolUse")
    ctx = fakes.context(toml, tool_input={"command": "rm x"})
    FeedbackCollection().process(ctx)
    assert ctx.matched == [] and ctx.soft == []
