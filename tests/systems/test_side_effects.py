"""Side effects never decide: they run only when the operation goes ahead (always after the fact)."""

from __future__ import annotations

from cupcake.pipeline.response import APPROVE, ASK, BLOCK, NONE, SOFT, Response
from cupcake.pipeline.runner import Failure
from cupcake.systems.side_effects import operation_goes_ahead, side_effect_policies
from tests.fakes import SOFT as SOFT_ACTION
from tests.fakes import policy


def test_the_operation_goes_ahead_only_when_nothing_stopped_it(fakes):
    ctx = fakes.context("")
    for decision, ahead in ((NONE, True), (APPROVE, True), (SOFT, False), (ASK, False), (BLOCK, False)):
        ctx.response = Response(decision)
        assert operation_goes_ahead(ctx) is ahead, decision
    ctx.response = Response(NONE)
    ctx.failures.append(Failure("state_load", "broke", True))
    assert not operation_goes_ahead(ctx)
    after = fakes.context("", event="PostToolUse")
    assert operation_goes_ahead(after)  # it already happened


def test_only_state_updates_and_ignored_checks_are_side_effects(fakes):
    toml = (
        policy("note", '{ type = "update_state", event = "deployed" }', "deploy")
        + policy("lint", '{ type = "run_command", command = "true", on_failure = "ignore" }', "deploy")
        + policy("tests", '{ type = "run_command", command = "true" }', "deploy")
        + policy("soft", SOFT_ACTION, "deploy")
    )
    ctx = fakes.context(toml, tool_input={"command": "deploy"})
    assert side_effect_policies(ctx) == []  # nothing matched yet
    ctx.matched = [0, 1, 2, 3]
    assert [(name, action.kind) for name, action in side_effect_policies(ctx)] == [("note", "state"), ("lint", "check")]
