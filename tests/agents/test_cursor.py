"""Cursor, from its documented payloads (hook-protocols reference 8.1): not verified in a real client."""

from __future__ import annotations

import pytest

from cupcake.agents import cursor
from tests.agents.conftest import RESPONSES, lines, out

DOCUMENTED = {line["hook_event_name"]: line for line in lines("cursor", "documented.jsonl")}


def test_parse_every_documented_event():
    expected = {
        "preToolUse": ("PreToolUse", "Bash", "Shell"),
        "beforeShellExecution": ("PreToolUse", "Bash", "Shell"),
        "beforeMCPExecution": ("PreToolUse", "mcp__cursor__query", "query"),
        "beforeReadFile": ("PreToolUse", "Read", "Read"),
        "afterFileEdit": ("PostToolUse", "Edit", "Write"),
        "afterShellExecution": ("PostToolUse", "Bash", "Shell"),
        "postToolUse": ("PostToolUse", "Write", "Write"),
        "beforeSubmitPrompt": ("UserPromptSubmit", None, None),
        "stop": ("Stop", None, None),
        "sessionStart": ("SessionStart", None, None),
    }
    for name, raw in DOCUMENTED.items():
        event, payload, project = cursor.parse(raw, name, {})
        assert (event, payload.get("tool_name"), payload.get("agent_tool")) == expected[name], name
        assert payload["agent_event"] == name and project == "<workspace>/proj"
        assert payload["session_id"] in ("c0ffee00-0000-4000-8000-000000000001", "s-1")


def test_event_payload_fields_become_canonical():
    shell = cursor.parse(DOCUMENTED["beforeShellExecution"], "beforeShellExecution", {})[1]
    assert shell["tool_input"] == {"command": "git push --force", "cwd": "<workspace>/proj"}
    mcp = cursor.parse(DOCUMENTED["beforeMCPExecution"], "beforeMCPExecution", {})[1]
    assert mcp["tool_input"] == {"sql": "DROP TABLE users"}
    read = cursor.parse(DOCUMENTED["beforeReadFile"], "beforeReadFile", {})[1]
    assert read["tool_input"] == {"file_path": "<workspace>/proj/.env"}
    edit = cursor.parse(DOCUMENTED["afterFileEdit"], "afterFileEdit", {})[1]["tool_input"]
    assert (edit["file_path"], edit["old_string"], edit["new_string"]) == (
        "<workspace>/proj/src/app.py",
        "x = 1\ny = 1",
        "x = 2\ny = 2",
    )
    post = cursor.parse(DOCUMENTED["postToolUse"], "postToolUse", {})[1]
    assert post["tool_input"]["content"] == "hello"
    assert cursor.parse(DOCUMENTED["stop"], "stop", {})[1]["stop_hook_active"] is False
    assert cursor.parse({**DOCUMENTED["stop"], "loop_count": 2}, "stop", {})[1]["stop_hook_active"] is True


def test_canonical_event_arg_keeps_the_documented_event():
    _, payload, _ = cursor.parse(DOCUMENTED["beforeShellExecution"], "PreToolUse", {})
    assert payload["agent_event"] == "beforeShellExecution" and payload["tool_name"] == "Bash"


def test_project_dir_without_workspace_roots():
    raw = {"hook_event_name": "stop"}
    assert cursor.parse(raw, None, {"CURSOR_PROJECT_DIR": "/c"})[2] == "/c"
    assert cursor.parse(raw, None, {})[2] is None
    assert cursor.parse({**raw, "workspace_roots": [7]}, None, {})[2] is None


def test_broken_mcp_arguments_never_crash():
    raw = {**DOCUMENTED["beforeMCPExecution"], "tool_input": "{not json"}
    _, payload, _ = cursor.parse(raw, None, {})
    assert payload["tool_input"] == {} and payload["tool_input_unreadable"] is True


def _deny(text, agent=True):
    d = {"permission": "deny", "user_message": text}
    if agent:
        d["agent_message"] = text
    return d


TABLE = {
    "beforeShellExecution": {
        "none": out(),
        "block": out(_deny("Operation blocked: no")),
        "soft": out(_deny("Policy feedback found")),
        "approve": out({"permission": "allow"}),
        "approve_soft": out({"permission": "allow", "agent_message": "Policy feedback found"}),
        "ask": out({"permission": "ask", "user_message": "confirm?"}),
        "context": out(),
        "error_open": out({"user_message": "Cupcake: broken"}),
        "error_closed": out(_deny("Cupcake: broken")),
    },
    "preToolUse": {
        "block": out(_deny("Operation blocked: no")),
        "ask": out({"user_message": "confirm?"}),  # documented as not enforced there: the user is told
    },
    "beforeReadFile": {
        "block": out(_deny("Operation blocked: no", agent=False)),
        "approve_soft": out({"permission": "allow", "user_message": "Policy feedback found"}),
    },
    "postToolUse": {
        "block": out({"additional_context": "Operation blocked: no"}),
        "soft": out({"additional_context": "Policy feedback found"}),
        "context": out({"additional_context": "House rules"}),
        "error_closed": out(None, "Cupcake: broken"),
    },
    "afterShellExecution": {"block": out(None, "Operation blocked: no"), "context": out()},
    "beforeSubmitPrompt": {
        "block": out({"continue": False, "user_message": "Operation blocked: no"}),
        "soft": out({"user_message": "Policy feedback found"}),
        "error_closed": out({"continue": False, "user_message": "Cupcake: broken"}),
    },
    "stop": {
        "block": out({"followup_message": "Operation blocked: no"}),
        "soft": out({"followup_message": "Policy feedback found"}),
        "context": out(),
    },
    "sessionStart": {
        "context": out({"additional_context": "House rules"}),
        "block": out({"additional_context": "Operation blocked: no"}, "Operation blocked: no"),
    },
    "subagentStart": {
        "block": out(_deny("Operation blocked: no", agent=False)),
        "ask": out({"user_message": "confirm?"}),
    },
    "preCompact": {"soft": out({"user_message": "Policy feedback found"})},
}
CASES = [(e, k) for e, kinds in TABLE.items() for k in kinds]


@pytest.mark.parametrize(("agent_event", "kind"), CASES)
def test_render(agent_event, kind):
    raw = DOCUMENTED.get(agent_event, {"hook_event_name": agent_event})
    event, payload, _ = cursor.parse(raw, agent_event, {})
    assert cursor.render(event, payload, RESPONSES[kind]) == TABLE[agent_event][kind]


def test_ask_support_differs_between_cursor_events():
    assert cursor.action_supported("ask", "PreToolUse", "beforeShellExecution") is True
    assert cursor.action_supported("ask", "PreToolUse", "preToolUse") is False
    assert cursor.action_supported("ask", "PreToolUse") is False
    assert cursor.action_supported("context", "PostToolUse", "afterFileEdit") is False
