"""700 · Exactly one well-formed answer, through a fake context: a failure is an error answer (or a
warning beside a stricter answer), no policy file means no answer at all, and the answer is sealed."""

from __future__ import annotations

import pytest

from cupcake.pipeline.response import BLOCK, ERROR, NONE, SOFT, Response
from cupcake.pipeline.runner import Failure
from cupcake.systems.feedback_guarantee import FeedbackGuarantee, ensure_response, failure_text, stands


@pytest.mark.parametrize(
    "mode, closed, text",
    [
        ("open", False, 'none was enforced for this event (fail_mode "open"): state broke'),
        ("closed", True, 'so this is blocked (fail_mode "closed"): state broke'),
    ],
)
def test_a_failure_of_a_system_that_decides_is_the_answer(fakes, mode, closed, text):
    ctx = fakes.context("")
    ctx.fail_mode = mode
    ctx.failures.append(Failure("state_load", "state broke", True))
    FeedbackGuarantee().process(ctx)
    assert (ctx.response.decision, ctx.response.fail_closed) == (ERROR, closed)
    assert ctx.response.text.endswith(text)
    assert ctx.sealed


def test_a_prepared_block_stands_and_the_failure_becomes_a_warning(fakes):
    ctx = fakes.context("")
    ctx.response = Response(BLOCK, text="Operation blocked: Use trash.")
    ctx.failures.append(Failure("acme", "acme broke", True, custom=True))
    ensure_response(ctx)
    assert ctx.response.decision == BLOCK
    assert ctx.warnings == ["Cupcake: acme broke"]


def test_unreadable_input_blocks_whatever_fail_mode_says(fakes):
    ctx = fakes.context("")
    failures = [Failure("input_parse", "it is not UTF-8 text", True, blocks=True)]
    assert failure_text(ctx, failures).startswith("Cupcake could not read this hook event, so it is blocked")
    ctx.failures.extend(failures)
    ensure_response(ctx)
    assert ctx.response.fail_closed is True


def test_no_policy_file_answers_nothing_and_a_missing_answer_is_an_error(fakes):
    quiet = fakes.context(None)
    ensure_response(quiet)
    assert quiet.response.decision == NONE
    missing = fakes.context("")
    ensure_response(missing)
    assert missing.response.decision == ERROR and "no answer was prepared" in missing.response.text


def test_sealed_means_nothing_changes_any_more(fakes):
    ctx = fakes.context("")
    ctx.sealed = True
    ctx.failures.append(Failure("state_load", "late", True))
    ensure_response(ctx)
    assert ctx.response is None


def test_what_stands_under_each_fail_mode():
    assert stands(Response(BLOCK), "open") and stands(Response(BLOCK), "closed")
    assert stands(Response(SOFT), "open") and not stands(Response(SOFT), "closed")
    assert not stands(None, "open") and not stands(Response(NONE), "open")
