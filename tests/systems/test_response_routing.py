"""800 · The sealed answer rendered by the agent's adapter, with every warning (and a standing problem
only where a session or a turn opens), through a fake context."""

from __future__ import annotations

import json

from cupcake.pipeline.response import NONE, Response
from cupcake.pipeline.runner import Failure
from cupcake.systems.response_routing import ResponseRouting, all_warnings, ensure_envelope


def _shown(ctx) -> dict:
    return json.loads(ctx.envelope[0])


def test_the_answer_is_rendered_with_the_warnings_and_the_writers_failures(fakes):
    ctx = fakes.context("")
    ctx.response = Response(NONE)
    ctx.warnings.append("Cupcake: a warning")
    ctx.failures.append(Failure("audit_write", "disk full", False))
    ResponseRouting().process(ctx)
    assert _shown(ctx) == {
        "event": "PreToolUse",
        "decision": "none",
        "warnings": ["Cupcake: a warning", "Cupcake: disk full"],
    }


def test_a_standing_problem_is_told_where_a_session_or_a_turn_opens_only(fakes):
    tool_call = fakes.context("")
    tool_call.standing.append("Cupcake: .cupcake/ cannot be written")
    assert all_warnings(tool_call) == []
    prompt = fakes.context("", event="UserPromptSubmit", tool=None)
    prompt.standing.append("Cupcake: .cupcake/ cannot be written")
    assert all_warnings(prompt) == ["Cupcake: .cupcake/ cannot be written"]


def test_no_policy_file_says_nothing_and_a_later_warning_renders_again(fakes):
    quiet = fakes.context(None)
    quiet.response = Response(NONE)
    quiet.warnings.append("Cupcake: not for a project without Cupcake")
    ensure_envelope(quiet)
    assert _shown(quiet)["warnings"] == []
    ctx = fakes.context("")
    ctx.response = Response(NONE)
    ensure_envelope(ctx)
    first = ctx.envelope
    ensure_envelope(ctx)
    assert ctx.envelope is first  # nothing new: not rendered again
    ctx.warnings.append("Cupcake: state not recorded")
    ensure_envelope(ctx)
    assert _shown(ctx)["warnings"] == ["Cupcake: state not recorded"]
