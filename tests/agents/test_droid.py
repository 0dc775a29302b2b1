"""Factory droid 0.225.2: the payloads the real client sent, and Claude Code's answers."""

from __future__ import annotations

import pytest

from cupcake.agents import droid
from tests.agents.conftest import RESPONSES, lines, out

CAPTURED = lines("droid", "capture.jsonl") + lines("droid", "block.jsonl")


def test_parse_every_captured_event():
    env = {"FACTORY_PROJECT_DIR": "<agents-dir>/droid/proj"}
    parsed = [droid.parse(raw, None, env) for raw in CAPTURED]
    assert [p[0] for p in parsed] == [
        "SessionStart",
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "SessionEnd",
        "PreToolUse",
        "PreToolUse",
    ]
    _, payload, project = parsed[1]
    assert project == "<agents-dir>/droid/proj"
    assert payload["tool_name"] == "Bash" and payload["agent_tool"] == "Execute"
    assert payload["tool_input"]["riskLevel"] == "low" and payload["permission_mode"] == "auto-high"
    assert parsed[2][1]["tool_response"] == "done\n\n\n[Process exited with code 0]"
    assert parsed[0][1]["CLAUDE_ENV_FILE"].startswith("<agents-dir>/droid/home")
    assert droid.parse(CAPTURED[0], None, {"DROID_PROJECT_DIR": "/d"})[2] == "/d"


def test_camel_case_spelling_is_read_too():
    raw = {
        "hookEventName": "PreToolUse",
        "sessionId": "s",
        "toolName": "Create",
        "toolInput": {"file_path": "cupcake.toml", "content": "x"},
    }
    event, payload, _ = droid.parse(raw, None, {})
    assert (event, payload["session_id"], payload["tool_name"], payload["tool_input"]["file_path"]) == (
        "PreToolUse",
        "s",
        "Write",
        "cupcake.toml",
    )


def _pre(**fields):
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}}


TABLE = {
    "PreToolUse": {
        "none": out(),
        "block": out(_pre(permissionDecision="deny", permissionDecisionReason="Operation blocked: no")),
        "soft": out(_pre(permissionDecision="deny", permissionDecisionReason="Policy feedback found")),
        "approve": out(_pre(permissionDecision="allow", permissionDecisionReason="trusted")),
        "approve_soft": out(
            {
                **_pre(permissionDecision="allow", permissionDecisionReason="trusted"),
                "systemMessage": "Policy feedback found",
            }
        ),
        "ask": out(_pre(permissionDecision="ask", permissionDecisionReason="confirm?")),
        "context": out(),
        "error_open": out({"systemMessage": "Cupcake: broken"}),
        "error_closed": out(
            {
                **_pre(permissionDecision="deny", permissionDecisionReason="Cupcake: broken"),
                "systemMessage": "Cupcake: broken",
            }
        ),
    },
    "PostToolUse": {
        "block": out({"decision": "block", "reason": "Operation blocked: no"}),
        "soft": out({"decision": "block", "reason": "Policy feedback found"}),
        "context": out({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "House rules"}}),
    },
    "UserPromptSubmit": {
        "block": out({"decision": "block", "reason": "Operation blocked: no"}),
        "soft": out(
            {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "Policy feedback found"}}
        ),
    },
    "Stop": {"block": out({"decision": "block", "reason": "Operation blocked: no"}), "approve": out()},
    "SessionStart": {
        "context": out({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "House rules"}}),
        "error_closed": out({"systemMessage": "Cupcake: broken"}),
    },
    "Notification": {"soft": out({"systemMessage": "Policy feedback found"}), "context": out()},
}
CASES = [(e, k) for e, kinds in TABLE.items() for k in kinds]


@pytest.mark.parametrize(("event", "kind"), CASES)
def test_render(event, kind):
    _, payload, _ = droid.parse({"hook_event_name": event, "stop_hook_active": False}, None, {})
    assert droid.render(event, payload, RESPONSES[kind]) == TABLE[event][kind]
