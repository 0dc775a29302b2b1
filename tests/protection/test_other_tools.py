"""Self-protection for MCP tools and for hard links to protected files (through the installed executable)."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.conftest import cupcake_executable

POLICY = '[[policy]]\nname = "no rm"\nmatcher = "Bash"\nconditions = [{ type = "command_regex", value = "rm -rf" }]\naction = { type = "block_with_feedback", feedback_message = "no" }\n'


@pytest.fixture
def root(tmp_path):
    root = (tmp_path / "p").resolve()
    root.mkdir()
    (tmp_path / "h").mkdir()
    (root / "cupcake.toml").write_text(POLICY)
    (root / ".claude").mkdir()
    (root / ".claude" / "settings.json").write_text("{}\n")
    return root


def _decision(root, tool, tool_input):
    payload = {
        "session_id": "s1",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "t1",
    }
    env = {"HOME": str(root.parent / "h"), "PATH": os.environ.get("PATH", os.defpath), "CLAUDE_PROJECT_DIR": str(root)}
    done = subprocess.run(
        [cupcake_executable(), "run", "--event", "PreToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=root,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done
    answer = json.loads(done.stdout) if done.stdout.strip() else {}
    specific = answer.get("hookSpecificOutput", {})
    return specific.get("permissionDecision"), specific.get("permissionDecisionReason", "")


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("mcp__filesystem__write_file", {"path": "cupcake.toml", "content": "[settings]\nself_protection = false\n"}),
        ("mcp__filesystem__edit_file", {"path": "./.claude/settings.json", "edits": []}),
        ("mcp__filesystem__move_file", {"source": ".cupcake", "destination": "old"}),
        ("mcp__filesystem__write_file", {"filename": "~/.claude/settings.json", "content": "{}"}),
        ("mcp__files__apply", {"changes": [{"file": "src/x.py"}, {"file": "cupcake.toml"}]}),
        ("mcp__tools__run", {"args": ["--out", ".cupcake/policy.cache"]}),
        ("mcp__fs__write_file", {"path": "file:///PROJECT/cupcake.toml", "content": "x"}),
    ],
)
def test_an_mcp_tool_naming_a_protected_path_is_blocked(root, tool, tool_input):
    text = json.dumps(tool_input).replace("/PROJECT", str(root))
    decision, reason = _decision(root, tool, json.loads(text))
    assert decision == "deny", reason
    assert "Cupcake self-protection" in reason


@pytest.mark.parametrize(
    ("tool", "tool_input"),
    [
        ("mcp__filesystem__read_file", {"path": "cupcake.toml"}),
        ("mcp__filesystem__list_directory", {"path": ".cupcake"}),
        ("mcp__filesystem__write_file", {"path": "notes.txt", "content": "cupcake.toml is the policy file"}),
        (
            "mcp__github__create_issue",
            {"title": "Fix the cupcake.toml parser", "body": "see .cupcake/audit.log\nthanks"},
        ),
    ],
)
def test_an_mcp_tool_that_reads_or_names_other_paths_goes_on(root, tool, tool_input):
    decision, reason = _decision(root, tool, tool_input)
    assert decision is None, reason


@pytest.mark.parametrize("protected", ["cupcake.toml", ".claude/settings.json", ".cupcake/audit.log"])
@pytest.mark.parametrize("tool", ["Write", "Edit", "mcp__filesystem__write_file"])
def test_a_write_to_a_hard_link_of_a_protected_file_is_blocked(root, protected, tool):
    target = root / protected
    target.parent.mkdir(exist_ok=True)
    if not target.exists():
        target.write_text("{}\n")
    os.link(target, root / "innocent.txt")
    key = "path" if tool.startswith("mcp__") else "file_path"
    decision, reason = _decision(root, tool, {key: str(root / "innocent.txt"), "content": "x", "old_string": "{"})
    assert decision == "deny", reason
    assert "hard link" in reason


def test_a_write_to_a_file_with_other_unprotected_links_goes_on(root):
    (root / "a.txt").write_text("a\n")
    os.link(root / "a.txt", root / "b.txt")
    assert _decision(root, "Write", {"file_path": str(root / "b.txt"), "content": "x"})[0] is None
