"""How init runs its agent: Claude Code's flags and session, any command's prompt, and the limits."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from cupcake.init.agent import AgentUnavailable, make_agent
from cupcake.init.targets import Target

FAKE_CLAUDE = """#!{python}
import json, os, sys
record = {{"argv": sys.argv[1:], "stdin": sys.stdin.read(), "cwd": os.getcwd()}}
with open({log!r}, "a") as f:
    f.write(json.dumps(record) + "\\n")
print(json.dumps({{"type": "result", "is_error": False, "result": "Wrote it.", "session_id": "sess-42"}}))
"""


def _targets(root: Path):
    return [
        Target("project", "cupcake.toml.tmp", str(root), str(root / "cupcake.toml"), "cupcake.toml", "p", "s"),
        Target("user", "cupcake.user.toml.tmp", str(root), str(root / "u"), "~/.claude/cupcake.toml", "u", "s"),
    ]


@pytest.fixture
def fake_claude(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.jsonl"
    claude = bin_dir / "claude"
    claude.write_text(FAKE_CLAUDE.format(python=os.path.realpath(os.sys.executable), log=str(log)))
    claude.chmod(0o755)
    root = tmp_path / "project"
    root.mkdir()
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    return root, env, lambda: [json.loads(line) for line in log.read_text().splitlines()]


def test_claude_code_runs_headless_with_hooks_off_and_may_write_only_the_temporary_files(fake_claude):
    root, env, calls = fake_claude
    agent = make_agent(None, str(root), _targets(root), env, timeout=30)
    reply = agent.first("THE TASK", 1)
    assert reply.ok and reply.text == "Wrote it." and reply.session_id == "sess-42"
    (call,) = calls()
    assert call["argv"] == [
        "-p",
        "--output-format",
        "json",
        "--settings",
        '{"disableAllHooks": true}',
        "--allowedTools",
        "Edit(./cupcake.toml.tmp),Edit(./cupcake.user.toml.tmp)",
    ]
    assert call["stdin"] == "THE TASK"
    assert call["cwd"] == str(root)


def test_a_correction_goes_to_the_same_claude_code_session(fake_claude):
    root, env, calls = fake_claude
    agent = make_agent("claude --model opus", str(root), _targets(root), env, timeout=30)
    agent.first("THE TASK", 1)
    agent.again("FIX THESE", "THE TASK", 2)
    first, second = calls()
    assert first["argv"][:2] == ["--model", "opus"]
    assert second["argv"][-2:] == ["--resume", "sess-42"]
    assert second["stdin"] == "FIX THESE"


def test_claude_code_reporting_an_error_fails_the_attempt(tmp_path, fake_claude):
    root, env, _ = fake_claude
    claude = Path(env["PATH"]) / "claude"
    claude.write_text(
        '#!/bin/sh\necho \'{"type":"result","is_error":true,"result":"Credit balance is too low","session_id":"s"}\'\nexit 1\n'
    )
    reply = make_agent(None, str(root), _targets(root), env, timeout=30).first("T", 1)
    assert not reply.ok and "Credit balance is too low" in reply.problem


def test_no_claude_on_path_is_an_unavailable_agent(tmp_path):
    with pytest.raises(AgentUnavailable, match="`claude` was not found on PATH"):
        make_agent(None, str(tmp_path), _targets(tmp_path), {"PATH": str(tmp_path)}, timeout=30)


def _recorder(tmp_path) -> str:
    script = tmp_path / "agent.sh"
    script.write_text(
        '#!/bin/sh\nprintf "%s\\n" "$@" > "$CUPCAKE_INIT_PROJECT_FILE.args"\ncat > "$CUPCAKE_INIT_PROJECT_FILE.stdin"\n'
        'echo "attempt $CUPCAKE_INIT_ATTEMPT user file $CUPCAKE_INIT_USER_FILE"\n'
    )
    script.chmod(0o755)
    return str(script)


def test_any_command_gets_the_prompt_on_stdin_and_the_files_to_write_in_its_environment(tmp_path):
    agent = make_agent(_recorder(tmp_path), str(tmp_path), _targets(tmp_path), {"PATH": "/usr/bin:/bin"}, timeout=30)
    reply = agent.first("THE TASK", 1)
    assert reply.ok and reply.text == f"attempt 1 user file {tmp_path}/cupcake.user.toml.tmp"
    assert (tmp_path / "cupcake.toml.tmp.stdin").read_text() == "THE TASK"
    reply = agent.again("FIX", "THE TASK", 2)
    assert reply.text.startswith("attempt 2")
    stdin = (tmp_path / "cupcake.toml.tmp.stdin").read_text()
    assert stdin.startswith("FIX") and stdin.endswith("THE TASK"), "without a session, the task is repeated"


def test_a_command_may_take_the_prompt_as_an_argument_or_a_file(tmp_path):
    command = f"{_recorder(tmp_path)} --message {{prompt}} --file {{prompt_file}}"
    agent = make_agent(command, str(tmp_path), _targets(tmp_path), {"PATH": "/usr/bin:/bin"}, timeout=30)
    assert agent.first("THE TASK", 1).ok
    args = (tmp_path / "cupcake.toml.tmp.args").read_text().splitlines()
    assert args[:3] == ["--message", "THE TASK", "--file"] and args[3].endswith("prompt.md")
    assert (tmp_path / "cupcake.toml.tmp.stdin").read_text() == ""


def test_an_agent_that_runs_too_long_is_stopped_with_what_it_started(tmp_path):
    script = tmp_path / "slow.sh"
    script.write_text(f"#!/bin/sh\nsleep 30 &\necho $! > {tmp_path}/child\nsleep 30\n")
    script.chmod(0o755)
    agent = make_agent(str(script), str(tmp_path), _targets(tmp_path), {"PATH": "/usr/bin:/bin"}, timeout=0.5)
    started = time.monotonic()
    reply = agent.first("T", 1)
    assert time.monotonic() - started < 5
    assert not reply.ok and "did not finish in time" in reply.problem
    child = int((tmp_path / "child").read_text())
    assert _ends_within(child, 2.0), f"process {child}, started by the agent, is still running"


def _ends_within(pid: int, seconds: float) -> bool:
    """Whether ``pid`` is gone (or a zombie waiting to be reaped) within ``seconds``: SIGKILL is sent,
    but the kernel takes a moment to end the process."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.02)
    return False
