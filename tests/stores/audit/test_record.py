"""The record of one run: decisions, the input summary, times."""

from __future__ import annotations

import pytest

from cupcake.agents.event import Event
from cupcake.pipeline.response import Response
from cupcake.stores.audit.query import Filters, QueryError, parse_since
from cupcake.stores.audit.record import decision_of, summarize_input, utc_stamp


@pytest.mark.parametrize(
    ("response", "kind"),
    [
        (Response("none"), "allow"),
        (Response("none", context="remember the style guide"), "context"),
        (Response("soft", text="x"), "feedback"),
        (Response("block", text="x"), "block"),
        (Response("approve", reason="x"), "approve"),
        (Response("ask", reason="x"), "ask"),
        (Response("error", text="x"), "error"),
        (None, "error"),
    ],
)
def test_decision_kinds(response, kind):
    assert decision_of(response) == kind


@pytest.mark.parametrize(
    ("payload", "summary"),
    [
        ({"tool_input": {"command": "ls", "description": "List files"}}, {"command": "ls"}),
        ({"tool_input": {"file_path": "/p/a.py", "content": "SECRET CONTENT"}}, {"file_path": "/p/a.py"}),
        ({"tool_input": {"file_path": "/p/a.py", "old_string": "a", "new_string": "b"}}, {"file_path": "/p/a.py"}),
        ({"tool_input": {"pattern": "TODO", "path": "src"}}, {"pattern": "TODO", "path": "src"}),
        ({"tool_input": {"url": "https://x.dev", "prompt": "summarise"}}, {"url": "https://x.dev"}),
        ({"prompt": "deploy with password=hunter2"}, {"prompt": "deploy with password=***"}),
        ({"tool_input": {"command": "x" * 600}}, {"command": "x" * 500 + "…"}),
        ({"tool_input": "not an object"}, {}),
    ],
)
def test_input_summary(payload, summary):
    assert summarize_input(Event("PreToolUse", payload)) == summary


def test_utc_stamp():
    assert utc_stamp(0.25) == "1970-01-01T00:00:00.250Z"
    assert utc_stamp(1738324800.5) == "2025-01-31T12:00:00.500Z"


def test_since():
    now = 1738324800.0  # 2025-01-31T12:00:00Z
    assert parse_since("2h", now) == "2025-01-31T10:00:00.000Z"
    assert parse_since("90m", now) == "2025-01-31T10:30:00.000Z"
    assert parse_since("1w", now) == "2025-01-24T12:00:00.000Z"
    assert parse_since("2025-01-30", now) == "2025-01-30T00:00:00.000Z"
    assert parse_since("2025-01-30T08:00:00+01:00", now) == "2025-01-30T07:00:00.000Z"
    with pytest.raises(QueryError, match="give an age such as 30m"):
        parse_since("two hours", now)


def test_filters():
    record = {
        "time": "2025-01-31T12:00:00.000Z",
        "session": "abc123",
        "event": "PreToolUse",
        "decision": "block",
        "matched": ["a", "b"],
        "policy": "b",
    }
    assert Filters(sessions=["abc"], events=["pretooluse"], decisions=["block", "ask"], policies=["a"]).match(record)
    assert not Filters(policies=["c"]).match(record)
    assert Filters(policies=["Cupcake self-protection"]).match(record | {"also": ["Cupcake self-protection"]})
    assert not Filters(policies=["x"]).match(record | {"also": "x"})  # not a list: never read as one
    assert not Filters(since="2025-01-31T12:00:00.001Z").match(record)
    with pytest.raises(QueryError, match="the decisions are allow, block"):
        Filters(decisions=["deny"])
