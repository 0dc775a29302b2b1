"""100 · The hook event read through the agent's adapter, in a fake context: what it accepts, and each
way it refuses (never a crash, an unreadable event blocks)."""

from __future__ import annotations

import json

import pytest

from cupcake.errors import CupcakeError, UnreadableInput
from cupcake.pipeline.context import Context
from cupcake.systems.input_parse import InputParse, shape_problem
from tests.fakes import fake_agent


def _parse(raw: bytes, event_arg=None) -> Context:
    ctx = Context(raw=raw, event_arg=event_arg, env={"FAKE_PROJECT_DIR": "/p"})
    ctx.agent = fake_agent()
    InputParse().process(ctx)
    return ctx


def test_an_event_becomes_the_canonical_event():
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "extra": 1}
    ctx = _parse(json.dumps(payload).encode())
    assert ctx.event == "PreToolUse" and ctx.payload == payload
    assert (ctx.incoming.tool, ctx.incoming.tool_input, ctx.incoming.agent) == ("Bash", {"command": "ls"}, "fake")
    assert ctx.incoming.project_dir == "/p"


@pytest.mark.parametrize(
    "raw, error, says",
    [
        (b"", CupcakeError, "the input is empty"),
        (b"{nope", CupcakeError, "is not valid JSON"),
        (b"[1, 2]", CupcakeError, "must be a JSON object, got list"),
        (b'{"tool_name": "Bash"}', CupcakeError, "no event: pass --event"),
        (b'{"hook_event_name": "Nonsense"}', CupcakeError, "could not be read: no such event"),
        (b'{"a": "\xff"}', UnreadableInput, "it is not UTF-8 text (byte 0xff at offset 7)"),
        (b'{"a": ' + b"[" * 200 + b"]" * 200 + b"}", UnreadableInput, "nested more than"),
        (b'{"hook_event_name": "PreToolUse", "x": "\\ud800"}', UnreadableInput, "a lone surrogate"),
        # deep in a list, in a nested key, beside text that is not ASCII, in upper case
        (
            b'{"hook_event_name": "PreToolUse", "x": [1, {"y": ["ok", "a\\uDFFFb"]}]}',
            UnreadableInput,
            "a lone surrogate",
        ),
        (b'{"hook_event_name": "PreToolUse", "x": {"k\\udc00": 1}}', UnreadableInput, "a lone surrogate"),
        (
            '{"hook_event_name": "PreToolUse", "x": "\u00e9t\u00e9 \\ud83d"}'.encode(),
            UnreadableInput,
            "a lone surrogate",
        ),
    ],
)
def test_what_cannot_be_read_is_refused_with_what_and_where(raw, error, says):
    with pytest.raises(error) as caught:
        _parse(raw)
    assert says in str(caught.value)


def test_an_unreadable_event_takes_the_form_of_the_event_named_on_the_command_line():
    ctx = Context(raw=b'{"a": "\xff"}', event_arg="PreToolUse", env={})
    ctx.agent = fake_agent()
    with pytest.raises(UnreadableInput):
        InputParse().process(ctx)
    assert ctx.event == "PreToolUse"


def test_an_event_name_no_agent_sends_is_a_typo_in_the_hook_command():
    with pytest.raises(CupcakeError) as caught:
        _parse(b'{"hook_event_name": "PreToolUse"}', event_arg="PreToolUsed")
    assert 'unknown event "PreToolUsed" (did you mean "PreToolUse"?)' in str(caught.value)


def test_shape_problems_name_where():
    assert shape_problem({"a": [{"b": "ok"}]}, True) is None
    why, how = shape_problem({"a": {"b\ud800": 1}}, True)
    assert why == "a has a key that is not valid Unicode (a lone surrogate)" and how == "valid Unicode text only"


@pytest.mark.parametrize(
    "raw",
    [
        b'{"hook_event_name": "PreToolUse", "x": "\\\\ud800 is text, not an escape"}',
        '{"hook_event_name": "PreToolUse", "x": "\u00e9t\u00e9", "y": ["\U0001f600", "\\ud83d\\ude00"]}'.encode(),
        b'{"hook_event_name": "PreToolUse", "tool_input": {"content": "' + b"x\\n" * 30_000 + b'"}}',
    ],
)
def test_text_without_a_lone_surrogate_is_read(raw):
    """A pair of escapes is one character, an escaped backslash is no escape, and text beyond ASCII is fine."""
    ctx = _parse(raw)
    assert ctx.event == "PreToolUse" and ctx.payload == json.loads(raw)
