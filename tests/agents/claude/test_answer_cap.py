"""Context and soft text on one answer: context first, and together within the client's cap."""

from __future__ import annotations

import pytest

from cupcake.agents.claude.capabilities import ANSWER_CAP as CLIENT_CAP
from cupcake.agents.claude.render import answer
from cupcake.pipeline.response import SOFT, Response
from cupcake.systems.response_preparation import prepare


def long_text(name: str, lines: int) -> str:
    return "\n".join(f"{name} {i:04d} " + "z" * 60 for i in range(lines)) + f"\n{name} ENDS"


@pytest.mark.parametrize("event", ["UserPromptSubmit", "SessionStart"])
def test_context_and_soft_text_together_fit_the_cap(event):
    context, message = long_text("context", 120), long_text("finding", 80)  # about 8,500 and 5,700
    response = prepare(None, [message], [context], cap=CLIENT_CAP)
    assert response.decision == SOFT
    shown = answer(event, {}, response)["hookSpecificOutput"]["additionalContext"]
    assert len(shown) <= CLIENT_CAP
    assert shown.startswith("context 0000 ")  # context first, its first line kept
    assert "characters cut by Cupcake" in shown
    assert shown.endswith("finding ENDS\n\nPlease address these issues before proceeding.")


def test_short_context_and_soft_text_are_joined_untouched():
    shown = answer("UserPromptSubmit", {}, Response(SOFT, text="Policy feedback found:\n• a", context="C"))
    assert shown["hookSpecificOutput"]["additionalContext"] == "C\n\nPolicy feedback found:\n• a"


def test_several_long_contexts_are_cut_to_the_cap():
    contexts = [long_text("first", 100), long_text("second", 100)]
    response = prepare(None, [], contexts, cap=CLIENT_CAP)
    assert len(response.context) <= CLIENT_CAP
    assert response.context.startswith("first 0000 ") and response.context.endswith("second ENDS")
