"""Lone UTF-16 surrogates in a command, a path, a session id or a prompt never break the audit record or
the state log, and a block already found stands (through the installed executable)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.conftest import cupcake_executable

POLICY = (
    "[settings]\naudit_logging = true\naudit_allows = true\n\n"
    '[[policy]]\nname = "no rm"\nconditions = [{ type = "command_regex", value = "rm -rf" }]\n'
    'action = { type = "block_with_feedback", feedback_message = "No rm -rf." }\n'
)


def _send(root, raw: bytes, event: str):
    env = {"HOME": str(root.parent / "h"), "PATH": os.environ.get("PATH", os.defpath), "CLAUDE_PROJECT_DIR": str(root)}
    done = subprocess.run(
        [cupcake_executable(), "run", "--event", event], input=raw, capture_output=True, cwd=root, env=env, timeout=60
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done
    return json.loads(done.stdout) if done.stdout.strip() else {}


@pytest.fixture
def root(tmp_path):
    root = (tmp_path / "p").resolve()
    root.mkdir()
    (tmp_path / "h").mkdir()
    (root / "cupcake.toml").write_text(POLICY)
    return root


def _payload(root, event, **fields) -> bytes:
    # json.dumps keeps "\ud800" as the escape: what an agent's JSON encoder sends for a lone surrogate
    base = {"session_id": "s\ud800x", "cwd": str(root), "hook_event_name": event}
    base.update(fields)
    return json.dumps(base).encode()


def test_lone_surrogates_everywhere_keep_the_block_and_the_records_whole(root):
    pre = _payload(root, "PreToolUse", tool_name="Bash", tool_input={"command": "rm -rf build \ud800"})
    answer = _send(root, pre, "PreToolUse")
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    post = _payload(
        root,
        "PostToolUse",
        tool_name="Write",
        tool_input={"file_path": f"{root}/notes\ud800.txt", "content": "x"},
        tool_response={"success": True},
    )
    _send(root, post, "PostToolUse")
    prompt = _payload(root, "UserPromptSubmit", prompt="hello \udfff world")
    _send(root, prompt, "UserPromptSubmit")
    failure = _payload(root, "PostToolUseFailure", tool_name="Bash", tool_input={"command": "x\ud800"}, error="e\udc00")
    _send(root, failure, "PostToolUseFailure")

    log = (root / ".cupcake" / "audit.log").read_bytes().splitlines()
    assert len(log) >= 2
    records = [json.loads(line) for line in log]  # every line whole, valid UTF-8 JSON
    assert any("rm -rf build" in json.dumps(r) for r in records)
    state_files = list((root / ".cupcake" / "state").glob("*.json"))
    assert state_files
    for line in state_files[0].read_bytes().splitlines():
        json.loads(line.decode("utf-8"))
    env = {"HOME": str(root.parent / "h"), "PATH": os.environ.get("PATH", os.defpath), "CLAUDE_PROJECT_DIR": str(root)}
    verify = subprocess.run(
        [cupcake_executable(), "audit", "verify"], capture_output=True, text=True, cwd=root, env=env, timeout=60
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
