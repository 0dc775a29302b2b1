"""Copilot CLI 1.0.102: the payloads the real client sent, and the answers it honours."""

from __future__ import annotations

import pytest

from cupcake.agents import copilot
from tests.agents.conftest import RESPONSES, lines, out

CAPTURED = lines("copilot", "capture.jsonl")
BLOCK_RUNS = lines("copilot", "block.jsonl")


def test_parse_every_captured_event():
    parsed = [copilot.parse(line["payload"], line["_event"], {}) for line in CAPTURED]
    assert [p[0] for p in parsed] == [
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "SessionEnd",
    ]
    _, payload, _ = parsed[2]
    assert payload["session_id"] == "2b96429a-3540-41b1-abb5-f31b70ccd50f" == payload["sessionId"]
    assert payload["tool_name"] == "Bash" and payload["agent_tool"] == "bash" and payload["agent_event"] == "preToolUse"
    assert payload["tool_input"]["command"].startswith("echo hello-from-fake-model")
    assert parsed[3][1]["tool_response"]["resultType"] == "success"
    assert parsed[4][1]["transcript_path"].endswith("events.jsonl") and parsed[4][1]["stop_hook_active"] is False
    assert parsed[1][1]["prompt"] == "Run a shell command please"
    for raw in BLOCK_RUNS:
        assert copilot.parse(raw, "preToolUse", {"COPILOT_PROJECT_DIR": raw["cwd"]})[2] == raw["cwd"]


def test_the_event_comes_from_the_hook_command():
    with pytest.raises(ValueError, match="no event"):
        copilot.parse(CAPTURED[2]["payload"], None, {})
    assert copilot.parse(CAPTURED[2]["payload"], "PreToolUse", {})[1]["agent_event"] == "preToolUse"


@pytest.mark.parametrize(
    ("args", "tool_input", "unreadable"),
    [
        ({"command": "ls", "description": "d"}, {"command": "ls", "description": "d"}, False),  # 1.0.102
        ('{"command": "ls", "description": "d"}', {"command": "ls", "description": "d"}, False),  # its docs
        ('{"command": "ls"', {}, True),
        ("{bad", {}, True),
        ("[1, 2]", {}, True),
        (7, {}, True),
        (None, {}, False),
    ],
)
def test_tool_args_as_object_string_or_broken(args, tool_input, unreadable):
    raw = {"sessionId": "s", "cwd": "/p", "toolName": "bash", "toolArgs": args}
    event, payload, _ = copilot.parse(raw, "preToolUse", {})
    assert event == "PreToolUse" and payload["tool_input"] == tool_input
    assert payload.get("tool_input_unreadable", False) is unreadable
    assert payload["toolArgs"] == args  # the original stays


def test_file_tools_read_as_claude_code_tools():
    raw = {"toolName": "edit", "toolArgs": {"path": "/p/a.py", "old_str": "1", "new_str": "2"}}
    ti = copilot.parse(raw, "preToolUse", {})[1]["tool_input"]
    assert (ti["file_path"], ti["old_string"], ti["new_string"]) == ("/p/a.py", "1", "2")
    raw = {"toolName": "create", "toolArgs": '{"path": "/p/b.py", "file_text": "x"}'}
    _, payload, _ = copilot.parse(raw, "preToolUse", {})
    assert payload["tool_name"] == "Write" and payload["tool_input"]["content"] == "x"


def _deny(reason):
    return {"permissionDecision": "deny", "permissionDecisionReason": reason}


TABLE = {
    "preToolUse": {
        "none": out(),
        "block": out(_deny("Operation blocked: no")),
        "soft": out(_deny("Policy feedback found")),
        "approve": out({"permissionDecision": "allow", "permissionDecisionReason": "trusted"}),
        "approve_soft": out(
            {
                "permissionDecision": "allow",
                "permissionDecisionReason": "trusted",
                "additionalContext": "Policy feedback found",
            }
        ),
        "ask": out({"permissionDecision": "ask", "permissionDecisionReason": "confirm?"}),
        "context": out({"additionalContext": "House rules"}),
        "error_open": out(None, "Cupcake: broken"),
        "error_closed": out(_deny("Cupcake: broken"), "Cupcake: broken"),
    },
    "postToolUse": {
        "none": out(),
        "block": out(None, "Operation blocked: no"),  # its output is ignored: a person may read stderr
        "soft": out(None, "Policy feedback found"),
        "context": out(),
        "error_closed": out(None, "Cupcake: broken"),
    },
    "agentStop": {
        "block": out({"decision": "block", "reason": "Operation blocked: no"}),
        "soft": out({"decision": "block", "reason": "Policy feedback found"}),
        # closed mode never blocks a stop: the work is done, and a block only makes the agent continue
        "error_closed": out(None, "Cupcake: broken"),
    },
    "userPromptSubmitted": {"block": out(None, "Operation blocked: no"), "context": out()},
    "sessionStart": {"context": out(), "block": out(None, "Operation blocked: no")},
}
CASES = [(e, k) for e, kinds in TABLE.items() for k in kinds]


@pytest.mark.parametrize(("agent_event", "kind"), CASES)
def test_render(agent_event, kind):
    event, payload, _ = copilot.parse({"sessionId": "s", "stop_hook_active": False}, agent_event, {})
    assert copilot.render(event, payload, RESPONSES[kind]) == TABLE[agent_event][kind]
