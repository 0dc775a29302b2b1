"""The harness works in each real client: hooks see the events, a JSON deny stops the shell command and
its reason reaches the model, a silent exit 0 lets the command run.

The capture test also guards the golden payloads in tests/fixtures/payloads/<agent>/: each event's
payload must keep the shape of the saved one. To save new ones (after a version bump), run it with
CUPCAKE_CAPTURE_PAYLOADS=1 and review the diff.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from cupcake.live.standin import Shell, Text

from .conftest import AGENTS
from .recording_hook import RecordingHook, with_placeholders
from .sessions import GENERIC_EVENTS, AgentRun, AgentSession

pytestmark = pytest.mark.real_client

PAYLOADS = Path(__file__).parents[2] / "fixtures" / "payloads"
CAPTURE = os.environ.get("CUPCAKE_CAPTURE_PAYLOADS") == "1"
COMMAND = "echo hello-from-the-model > hello.txt && echo done"
REASON = "REFUSED-BY-TEST-HOOK: no shell today"


def _claude_style_deny(reason: str) -> str:
    output = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}
    return json.dumps({"hookSpecificOutput": output})


@dataclass(frozen=True)
class Expect:
    """What each agent is known to do (observed with the pinned versions)."""

    fired: frozenset[str]  # the events a one-command headless session fires, all six generic ones hooked
    deny: Callable[[str], str]  # the hook's stdout that denies the tool
    denied_prefix: str  # how the model is told of the denial ({reason} filled in)
    command_of: Callable[[dict[str, Any]], Any]  # the shell command in a before-tool payload


EXPECT = {
    "gemini": Expect(
        frozenset({"SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"}),
        lambda reason: json.dumps({"decision": "deny", "reason": reason}),
        "Tool execution blocked: {reason}",
        lambda payload: payload["tool_input"]["command"],
    ),
    "codex": Expect(
        frozenset({"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"}),
        _claude_style_deny,
        "Command blocked by PreToolUse hook: {reason}. Command: ",
        lambda payload: payload["tool_input"]["command"],
    ),
    "copilot": Expect(
        frozenset({"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "agentStop", "sessionEnd"}),
        lambda reason: json.dumps({"permissionDecision": "deny", "permissionDecisionReason": reason}),
        "Denied by preToolUse hook: {reason}",
        lambda payload: payload["toolArgs"]["command"],
    ),
    "droid": Expect(  # `droid exec` never fires UserPromptSubmit
        frozenset({"SessionStart", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"}),
        _claude_style_deny,
        "Error: {reason}",
        lambda payload: payload["tool_input"]["command"],
    ),
}


def _shape(value: Any) -> Any:
    """The structure of a payload: keys and value kinds, not values."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    if isinstance(value, bool) or value is None:
        return type(value).__name__
    return "number" if isinstance(value, (int, float)) else type(value).__name__


def _run_one_command(session: AgentSession) -> AgentRun:
    run = session.run([Shell(COMMAND), Text("All done.")])
    assert run.returncode == 0, run.describe()
    assert len(run.main_loop_requests) >= 2, f"the model was not asked again after the tool call\n{run.describe()}"
    return run


@pytest.mark.parametrize("agent", AGENTS)
def test_hooks_receive_every_event_payload(agent: str, agent_session, tmp_path: Path) -> None:
    expect = EXPECT[agent]
    session = agent_session(agent)
    hook = RecordingHook.create(tmp_path / "hook")
    session.write_hooks(hook.command, events=GENERIC_EVENTS)

    run = _run_one_command(session)

    assert set(hook.events()) == expect.fired, run.describe()
    pre_tool = session.native_event("before_tool")
    assert [expect.command_of(p) for p in hook.payloads(pre_tool)] == [COMMAND], run.describe()
    assert run.new_files == ["hello.txt"], run.describe()
    for event in sorted(expect.fired):
        captured = with_placeholders(hook.payloads(event)[0], session.home, session.project)
        golden = PAYLOADS / agent / f"{event}.json"
        if CAPTURE:
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(json.dumps(captured, indent=1, ensure_ascii=False) + "\n")
            continue
        assert golden.exists(), f"no golden payload {golden}: run with CUPCAKE_CAPTURE_PAYLOADS=1"
        assert _shape(captured) == _shape(json.loads(golden.read_text())), f"{agent} {event} changed shape: {captured}"


@pytest.mark.parametrize("scope", ["project", "user"])
@pytest.mark.parametrize("agent", AGENTS)
def test_json_deny_stops_the_command_and_the_model_sees_the_reason(
    agent: str, scope: str, agent_session, tmp_path: Path
) -> None:
    expect = EXPECT[agent]
    session = agent_session(agent)
    hook = RecordingHook.create(tmp_path / "hook")
    pre_tool = session.native_event("before_tool")
    hook.reply(pre_tool, expect.deny(REASON))
    written = session.write_hooks(hook.command, events=["before_tool"], scope=scope)
    assert written.is_relative_to(session.project if scope == "project" else session.home)

    run = _run_one_command(session)

    assert len(hook.payloads(pre_tool)) == 1, run.describe()
    assert run.new_files == [], f"the denied command ran\n{run.describe()}"
    assert run.shown_after_tool.startswith(expect.denied_prefix.format(reason=REASON)), run.describe()
    assert REASON in run.last_model_input


@pytest.mark.parametrize("agent", AGENTS)
def test_silent_exit_0_lets_the_command_run(agent: str, agent_session, tmp_path: Path) -> None:
    session = agent_session(agent)
    hook = RecordingHook.create(tmp_path / "hook")
    session.write_hooks(hook.command, events=["before_tool"])

    run = _run_one_command(session)

    assert len(hook.payloads(session.native_event("before_tool"))) == 1, run.describe()
    assert run.new_files == ["hello.txt"], run.describe()
    assert (session.project / "hello.txt").read_text() == "hello-from-the-model\n"
    assert "done" in run.shown_after_tool and REASON not in run.shown_after_tool, run.describe()
    assert run.output_json, f"no JSON output\n{run.describe()}"


def test_codex_skips_untrusted_hooks_without_a_word(agent_session, tmp_path: Path) -> None:
    """Why CodexSession.write_hooks trusts what it writes: the same hook file, untrusted, never runs."""
    session = agent_session("codex")
    hook = RecordingHook.create(tmp_path / "hook")
    hook.reply("PreToolUse", _claude_style_deny(REASON))
    AgentSession.write_hooks(session, hook.command, events=["before_tool"])  # written, not trusted

    run = _run_one_command(session)

    assert hook.events() == [], run.describe()
    assert run.new_files == ["hello.txt"], run.describe()
    assert session.trust_hooks() == [f"{session.project / '.codex' / 'hooks.json'}:pre_tool_use:0:0"]
    assert session.trust_hooks() == []  # nothing left to trust
