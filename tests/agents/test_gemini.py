"""Gemini CLI 0.61.0: the payloads the real client sent, and the answers it honours."""

from __future__ import annotations

import pytest

from cupcake.agents import gemini
from tests.agents.conftest import RESPONSES, lines, out

CAPTURED = lines("gemini", "capture.jsonl") + lines("gemini", "block.jsonl")
ENV = {"GEMINI_PROJECT_DIR": "<agents-dir>/gemini/proj", "GEMINI_CWD": "<agents-dir>/gemini/proj"}


def test_parse_every_captured_event():
    parsed = [gemini.parse(raw, None, ENV) for raw in CAPTURED]
    assert [p[0] for p in parsed] == [
        "SessionStart",
        "UserPromptSubmit",
        "BeforeModel",
        "PreToolUse",
        "PostToolUse",
        "BeforeModel",
        "Stop",
        "SessionEnd",
        "PreToolUse",
        "PreToolUse",
    ]
    assert [p[1]["agent_event"] for p in parsed][:5] == [
        "SessionStart",
        "BeforeAgent",
        "BeforeModel",
        "BeforeTool",
        "AfterTool",
    ]
    event, payload, project = parsed[3]
    assert project == "<agents-dir>/gemini/proj"
    assert payload["tool_name"] == "Bash" and payload["agent_tool"] == "run_shell_command"
    assert payload["tool_input"]["command"].startswith("echo hello-from-fake-model")
    assert payload["timestamp"] == "2026-11-22T06:38:35.042Z"  # unknown fields kept
    assert parsed[4][1]["tool_response"]["returnDisplay"] == "done"
    assert parsed[1][1]["prompt"] == "Run a shell command please"
    assert parsed[6][1]["stop_hook_active"] is False
    assert gemini.parse(CAPTURED[0], None, {})[2] is None


@pytest.mark.parametrize(
    ("tool", "canonical", "tool_input", "field", "value"),
    [
        ("write_file", "Write", {"file_path": "a.txt", "content": "x"}, "content", "x"),
        ("replace", "Edit", {"file_path": "a.txt", "old_string": "1", "new_string": "2"}, "new_string", "2"),
        ("read_file", "Read", {"absolute_path": "/p/a.txt"}, "file_path", "/p/a.txt"),
        ("grep_search", "Grep", {"pattern": "TODO"}, "pattern", "TODO"),
        ("mcp__db__query", "mcp__db__query", {"sql": "x"}, "sql", "x"),
    ],
)
def test_tools_read_as_claude_code_tools(tool, canonical, tool_input, field, value):
    _, payload, _ = gemini.parse(
        {"hook_event_name": "BeforeTool", "tool_name": tool, "tool_input": tool_input}, None, {}
    )
    assert (payload["tool_name"], payload["agent_tool"], payload["tool_input"][field]) == (canonical, tool, value)


def test_mcp_tool_named_from_its_context():
    raw = {
        "hook_event_name": "BeforeTool",
        "tool_name": "mcp_db_query",
        "mcp_context": {"server_name": "db", "tool_name": "query"},
    }
    assert gemini.parse(raw, None, {})[1]["tool_name"] == "mcp__db__query"


def _ctx(event, text):
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


TABLE = {
    "BeforeTool": {
        "none": out(),
        "block": out({"decision": "deny", "reason": "Operation blocked: no"}),
        "soft": out({"decision": "deny", "reason": "Policy feedback found"}),
        "approve": out({"decision": "allow", "reason": "trusted"}),
        "approve_soft": out({"decision": "allow", "reason": "trusted", "systemMessage": "Policy feedback found"}),
        "ask": out({"decision": "ask", "reason": "confirm?"}),
        "context": out(),  # BeforeTool takes no additionalContext
        "error_open": out({"systemMessage": "Cupcake: broken"}),
        "error_closed": out({"decision": "deny", "reason": "Cupcake: broken", "systemMessage": "Cupcake: broken"}),
    },
    "AfterTool": {
        "block": out({"decision": "deny", "reason": "Operation blocked: no"}),
        "soft": out(_ctx("AfterTool", "Policy feedback found")),
        "context": out(_ctx("AfterTool", "House rules")),
        "error_closed": out({"decision": "deny", "reason": "Cupcake: broken", "systemMessage": "Cupcake: broken"}),
    },
    "BeforeAgent": {
        "block": out({"decision": "deny", "reason": "Operation blocked: no"}),
        "soft": out(_ctx("BeforeAgent", "Policy feedback found")),
        "context": out(_ctx("BeforeAgent", "House rules")),
    },
    "AfterAgent": {
        "block": out({"decision": "deny", "reason": "Operation blocked: no"}),
        "soft": out({"decision": "deny", "reason": "Policy feedback found"}),
        "context": out(),
    },
    "SessionStart": {
        "block": out({**_ctx("SessionStart", "Operation blocked: no"), "systemMessage": "Operation blocked: no"}),
        "context": out(_ctx("SessionStart", "House rules")),
        "error_closed": out({"systemMessage": "Cupcake: broken"}),
    },
    "SessionEnd": {"block": out({"systemMessage": "Operation blocked: no"}), "none": out()},
    "BeforeModel": {"soft": out({"systemMessage": "Policy feedback found"}), "approve": out()},
}
CASES = [(e, k) for e, kinds in TABLE.items() for k in kinds]


@pytest.mark.parametrize(("agent_event", "kind"), CASES)
def test_render(agent_event, kind):
    event, payload, _ = gemini.parse({"hook_event_name": agent_event, "stop_hook_active": False}, None, {})
    assert gemini.render(event, payload, RESPONSES[kind]) == TABLE[agent_event][kind]


def test_soft_on_a_retry_already_running_only_tells_the_user():
    event, payload, _ = gemini.parse({"hook_event_name": "AfterAgent", "stop_hook_active": True}, None, {})
    assert gemini.render(event, payload, RESPONSES["soft"]) == out({"systemMessage": "Policy feedback found"})
