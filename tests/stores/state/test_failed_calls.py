"""A failed tool call does not count as done for state conditions (through the installed executable)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.conftest import cupcake_executable

POLICY = """
[[policy]]
name = "Tests before commits"
matcher = "Bash"
conditions = [
  { type = "command_regex", value = "git commit" },
  { type = "state_missing", tool = "Bash", command = "pytest" },
]
action = { type = "block_with_feedback", feedback_message = "Run pytest first." }
"""


def _send(root, event, tool_input, **extra):
    payload = {"session_id": "s1", "cwd": str(root), "hook_event_name": event, "tool_name": "Bash"}
    payload.update(tool_input=tool_input, tool_use_id="t1", **extra)
    env = {"HOME": str(root.parent / "h"), "PATH": os.environ.get("PATH", os.defpath), "CLAUDE_PROJECT_DIR": str(root)}
    done = subprocess.run(
        [cupcake_executable(), "run", "--event", event],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=root,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done
    return json.loads(done.stdout) if done.stdout.strip() else {}


def _commit_denied(root) -> bool:
    answer = _send(root, "PreToolUse", {"command": "git commit -m x"})
    return answer.get("hookSpecificOutput", {}).get("permissionDecision") == "deny"


@pytest.fixture
def root(tmp_path):
    root = (tmp_path / "p").resolve()
    root.mkdir()
    (tmp_path / "h").mkdir()
    (root / "cupcake.toml").write_text(POLICY)
    return root


@pytest.mark.parametrize(
    ("event", "extra"),
    [
        ("PostToolUseFailure", {"error": "Exit code 1\n3 failed", "is_interrupt": False}),
        ("PostToolUse", {"tool_response": {"stdout": "", "stderr": "", "interrupted": True, "isImage": False}}),
        ("PostToolUse", {"tool_response": {"resultType": "failure", "textResultForLlm": "exit code 1"}}),
        ("PostToolUse", {"tool_response": {"exit_code": 2}}),
    ],
)
def test_a_failed_run_of_the_tests_does_not_satisfy_state_missing(root, event, extra):
    assert _commit_denied(root)
    _send(root, event, {"command": "pytest -q"}, **extra)
    assert _commit_denied(root)
    ok = {"tool_response": {"stdout": "5 passed", "stderr": "", "interrupted": False, "isImage": False}}
    _send(root, "PostToolUse", {"command": "pytest -q"}, **ok)
    assert not _commit_denied(root)
