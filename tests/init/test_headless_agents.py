"""`cupcake init --agent NAME`: each agent's headless command line, hooks off, and how its output is read
(a fake program per agent that records its argv and environment and prints what the real one prints)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cupcake.init.agent import AgentUnavailable, make_agent
from cupcake.init.targets import Target

FAKE = """#!{python}
import json, os, sys
record = {{"argv": sys.argv[1:], "stdin": sys.stdin.read(), "env": dict(os.environ)}}
for i, word in enumerate(sys.argv):
    if word in ("--settings", "--policy") and i + 1 < len(sys.argv):
        record[word] = open(sys.argv[i + 1]).read()
if os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH"):
    record["system"] = json.load(open(os.environ["GEMINI_CLI_SYSTEM_SETTINGS_PATH"]))
with open({log!r}, "a") as f:
    f.write(json.dumps(record) + "\\n")
sys.stdout.write({output!r})
"""

OUTPUT = {
    "codex": '{"type":"thread.started","thread_id":"th-1"}\n{"type":"turn.started"}\n'
    '{"type":"item.completed","item":{"id":"i1","type":"agent_message","text":"Wrote it."}}\n'
    '{"type":"turn.completed","usage":{}}\n',
    "gemini": json.dumps({"session_id": "ge-1", "response": "Wrote it.", "stats": {}}),
    "copilot": '{"type":"session.start","data":{"sessionId":"co-1"}}\n'
    '{"type":"assistant.message","data":{"content":"Wrote it."}}\n',
    "droid": json.dumps({"type": "result", "is_error": False, "result": "Wrote it.", "session_id": "dr-1"}),
}


def _targets(root: Path):
    return [Target("project", "cupcake.toml.tmp", str(root), str(root / "cupcake.toml"), "cupcake.toml", "p", "s")]


def _fake(tmp_path: Path, agent: str, output: str | None = None):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / f"{agent}.jsonl"
    program = bin_dir / agent
    text = OUTPUT[agent] if output is None else output
    program.write_text(FAKE.format(python=os.path.realpath(os.sys.executable), log=str(log), output=text))
    program.chmod(0o755)
    root = tmp_path / "project"
    root.mkdir(exist_ok=True)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {"PATH": str(bin_dir), "HOME": str(home), "COPILOT_ALLOW_ALL": "true"}
    agent_obj = make_agent(None, str(root), _targets(root), env, 30, agent=agent)
    return agent_obj, log


def _calls(log: Path):
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_codex_runs_exec_with_hooks_disabled_in_the_workspace_sandbox_and_resumes_its_thread(tmp_path):
    agent, log = _fake(tmp_path, "codex")
    first = agent.first("TASK", 1)
    assert first.ok and first.text == "Wrote it." and first.session_id == "th-1"
    agent.again("PROBLEMS", "TASK", 2)
    one, two = _calls(log)
    assert one["argv"][0] == "exec" and one["argv"][-1] == "-" and one["stdin"] == "TASK"
    assert "--disable" in one["argv"] and one["argv"][one["argv"].index("--disable") + 1] == "hooks"
    assert 'sandbox_mode="workspace-write"' in one["argv"]
    assert two["argv"][:2] == ["exec", "resume"] and two["argv"][-2:] == ["th-1", "-"]
    assert two["stdin"] == "PROBLEMS"  # the thread already has the task


def test_codex_reporting_a_failed_turn_fails_the_attempt(tmp_path):
    agent, _ = _fake(tmp_path, "codex", '{"type":"turn.failed","error":{"message":"model unreachable"}}\n')
    reply = agent.first("TASK", 1)
    assert not reply.ok and "model unreachable" in reply.problem


def test_gemini_gets_system_settings_with_hooks_off_and_a_policy_for_the_temporary_files(tmp_path):
    agent, log = _fake(tmp_path, "gemini")
    assert agent.first("TASK", 1).ok
    agent.again("PROBLEMS", "TASK", 2)
    one, two = _calls(log)
    assert one["stdin"] == "TASK" and "--approval-mode" in one["argv"]
    assert one["argv"][one["argv"].index("--approval-mode") + 1] == "auto_edit"
    assert one["system"]["hooksConfig"]["enabled"] is False
    policy = one["--policy"]
    assert 'decision = "deny"' in policy and "cupcake\\\\.toml\\\\.tmp" in policy
    # the run's own files are private and under the user's home, never below a world-writable directory
    assert one["env"]["GEMINI_CLI_SYSTEM_SETTINGS_PATH"].startswith(str(tmp_path / "home" / ".gemini"))
    assert two["argv"][-2:] == ["--resume", "ge-1"] and two["stdin"] == "PROBLEMS"


def test_copilot_is_not_given_folder_trust_so_repository_hooks_stay_off(tmp_path):
    agent, log = _fake(tmp_path, "copilot")
    reply = agent.first("TASK", 1)
    assert reply.ok and reply.text == "Wrote it."
    agent.again("PROBLEMS", "TASK", 2)
    one, two = _calls(log)
    assert one["argv"][:2] == ["-p", "TASK"]
    assert "COPILOT_ALLOW_ALL" not in one["env"] and "--trust-folder" not in one["argv"]
    assert ["--allow-tool", "write"] == one["argv"][4:6] and "--deny-tool" in one["argv"]
    assert two["argv"][-2:] == ["--resume", "co-1"]


def test_copilot_gets_a_long_prompt_as_a_file_to_read(tmp_path):
    agent, log = _fake(tmp_path, "copilot")
    assert agent.first("x" * 200_000, 1).ok
    argument = _calls(log)[0]["argv"][1]
    assert len(argument) < 1000 and "prompt.md" in argument


def test_droid_gets_hooks_disabled_for_its_process_and_repeats_the_task_on_a_correction(tmp_path):
    agent, log = _fake(tmp_path, "droid")
    assert agent.first("TASK", 1).ok
    agent.again("PROBLEMS", "TASK", 2)
    one, two = _calls(log)
    assert one["argv"][0] == "exec" and ["--auto", "low"] == one["argv"][one["argv"].index("--auto") :][:2]
    assert json.loads(one["--settings"]) == {"hooks": {"hooksDisabled": True}}
    assert "-s" not in two["argv"]  # see the translator: droid's -s failed for its own session


def test_droid_reporting_an_error_fails_the_attempt(tmp_path):
    agent, _ = _fake(tmp_path, "droid", json.dumps({"type": "result", "is_error": True, "result": "no model"}))
    reply = agent.first("TASK", 1)
    assert not reply.ok and "no model" in reply.problem


def test_agent_command_replaces_the_program_and_adds_options(tmp_path):
    _fake(tmp_path, "codex")
    root = tmp_path / "project"
    program = tmp_path / "bin" / "codex"
    agent = make_agent(f"{program} -c model=x", str(root), _targets(root), {"PATH": ""}, 30, agent="codex")
    agent.first("TASK", 1)
    argv = _calls(tmp_path / "codex.jsonl")[0]["argv"]
    assert argv[:3] == ["exec", "-c", "model=x"]


def test_an_unknown_agent_or_a_missing_client_is_unavailable(tmp_path):
    with pytest.raises(AgentUnavailable, match="no translator"):
        make_agent(None, str(tmp_path), [], {"PATH": ""}, 30, agent="cursor")
    with pytest.raises(AgentUnavailable, match="`gemini` was not found"):
        make_agent(None, str(tmp_path), [], {"PATH": str(tmp_path)}, 30, agent="gemini")
