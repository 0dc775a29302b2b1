"""Codex 0.169.0: the payloads the real client sent, and the answers it accepts."""

from __future__ import annotations

import pytest

from cupcake.agents import codex
from tests.agents.conftest import RESPONSES, lines, out

CAPTURED = lines("codex", "capture.jsonl") + lines("codex", "block.jsonl")


def test_parse_every_captured_event():
    events = [codex.parse(raw, None, {"HOME": "/h"})[0] for raw in CAPTURED]
    assert events == [
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "SessionEnd",
        "PreToolUse",
        "PreToolUse",
    ]
    event, payload, project = codex.parse(CAPTURED[2], "PreToolUse", {})
    assert project is None  # Codex names no project dir: the caller uses cwd
    assert payload["tool_name"] == "Bash" == payload["agent_tool"]
    assert payload["tool_input"]["command"] == "echo hello-from-fake-model > <agents-dir>/codex/ran.txt; echo done"
    assert payload["cwd"] == "<agents-dir>/codex/proj" and payload["turn_id"] == "01a201fd-3880-77e3-a9d2-7f84aaab6606"
    assert codex.parse(CAPTURED[3], None, {})[1]["tool_response"] == "done\n"
    assert codex.parse(CAPTURED[4], None, {})[1]["stop_hook_active"] is False


def test_apply_patch_reads_as_a_file_edit():
    patch = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-x = 1\n+x = 2\n*** Add File: notes.md\n+hi\n*** End Patch"
    raw = {"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "tool_input": {"command": patch}}
    _, payload, _ = codex.parse(raw, None, {})
    assert payload["tool_name"] == "Edit" and payload["agent_tool"] == "apply_patch"
    ti = payload["tool_input"]
    assert ti["file_path"] == "src/a.py" and ti["file_paths"] == ["src/a.py", "notes.md"]
    assert ti["old_string"] == "x = 1" and ti["new_string"] == "x = 2\nhi" and ti["command"] == patch
    add = {
        "hook_event_name": "PreToolUse",
        "tool_name": "apply_patch",
        "tool_input": {"command": "*** Begin Patch\n*** Add File: cupcake.toml\n+x\n*** End Patch"},
    }
    _, payload, _ = codex.parse(add, None, {})
    assert payload["tool_name"] == "Write" and payload["tool_input"]["content"] == "x"


def _pre(reason: str):
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }


ASK_TOLD = (
    "Cupcake: a policy asks for your confirmation here, which Codex hooks cannot request; "
    "Codex's own approval settings decide. confirm?"
)
TABLE = {
    "PreToolUse": {
        "none": out(),
        "block": out(_pre("Operation blocked: no")),
        "soft": out(_pre("Policy feedback found")),
        "approve": out(),  # Codex rejects allow: nothing is sent
        "approve_soft": out(
            {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "Policy feedback found"}}
        ),
        "ask": out({"systemMessage": ASK_TOLD}),
        "context": out({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "House rules"}}),
        "error_open": out({"systemMessage": "Cupcake: broken"}),
        "error_closed": out({**_pre("Cupcake: broken"), "systemMessage": "Cupcake: broken"}),
    },
    "PostToolUse": {
        "none": out(),
        "block": out({"decision": "block", "reason": "Operation blocked: no"}),
        "soft": out(
            {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "Policy feedback found"}}
        ),
        "approve": out(),
        "ask": out(),
        "context": out({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "House rules"}}),
        "error_open": out({"systemMessage": "Cupcake: broken"}),
        "error_closed": out({"decision": "block", "reason": "Cupcake: broken", "systemMessage": "Cupcake: broken"}),
    },
    "UserPromptSubmit": {
        "block": out({"decision": "block", "reason": "Operation blocked: no"}),
        "soft": out(
            {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "Policy feedback found"}}
        ),
        "context": out(
            {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "House rules"}}
        ),
        "error_closed": out({"decision": "block", "reason": "Cupcake: broken", "systemMessage": "Cupcake: broken"}),
    },
    "Stop": {
        "none": out(),
        "block": out({"decision": "block", "reason": "Operation blocked: no"}),
        "soft": out({"decision": "block", "reason": "Policy feedback found"}),
        "context": out(),
        "error_open": out({"systemMessage": "Cupcake: broken"}),
    },
    "SessionStart": {
        "block": out(
            {
                "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "Operation blocked: no"},
                "systemMessage": "Operation blocked: no",
            }
        ),
        "context": out({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "House rules"}}),
        "error_closed": out({"systemMessage": "Cupcake: broken"}),
    },
    "PermissionRequest": {
        "block": out(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "deny", "message": "Operation blocked: no"},
                }
            }
        ),
        "approve": out(
            {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}
        ),
        "ask": out(),
    },
    "SessionEnd": {
        "block": out({"systemMessage": "Operation blocked: no"}),
        "context": out(),
        "error_closed": out({"systemMessage": "Cupcake: broken"}),
    },
}
CASES = [(e, k) for e, kinds in TABLE.items() for k in kinds]


@pytest.mark.parametrize(("event", "kind"), CASES)
def test_render(event, kind):
    _, payload, _ = codex.parse({"hook_event_name": event, "stop_hook_active": False}, None, {})
    assert codex.render(event, payload, RESPONSES[kind]) == TABLE[event][kind]


def test_soft_on_a_stop_already_continuing_only_tells_the_user():
    _, payload, _ = codex.parse({"hook_event_name": "Stop", "stop_hook_active": True}, None, {})
    assert codex.render("Stop", payload, RESPONSES["soft"]) == out({"systemMessage": "Policy feedback found"})


def test_never_writes_a_field_codex_refuses():
    for event in codex.CAPABILITIES:
        _, payload, _ = codex.parse({}, event, {})
        for response in RESPONSES.values():
            stdout, _, _ = codex.render(event, payload, response)
            for refused in (b'"allow"', b'"ask"', b'"continue"', b'"stopReason"', b'"suppressOutput"'):
                if event != "PermissionRequest":
                    assert refused not in stdout
