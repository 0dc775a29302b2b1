"""An action's `type` that is missing or not a string is reported as such, never a crash of the compiler."""

from __future__ import annotations

import pytest

from cupcake.compile.compile_actions import compile_action


@pytest.mark.parametrize(
    "action, found",
    [
        ({"feedback_message": "x"}, "no `type`"),
        ({"type": ["block_with_feedback"]}, "`type` is list"),
        ({"type": {"a": 1}}, "`type` is dict"),
        ({"type": 3}, "`type` is int"),
    ],
)
def test_an_action_without_a_string_type_is_reported(action, found):
    reported = []
    assert compile_action(action, "PreToolUse", lambda *args: reported.append(args)) is None
    assert reported == [
        (f'the action needs a type, such as type = "block_with_feedback" ({found})', ("action", "type"))
    ]
