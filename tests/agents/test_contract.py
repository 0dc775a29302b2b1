"""What every adapter promises, whatever its agent: the interface, unknown input passed through,
bad input refused clearly, any text rendered without crashing, and a light import."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import cupcake
from cupcake import agents as registry
from cupcake.pipeline.response import Response
from tests.agents.conftest import RESPONSES

AGENTS = ("claude", "codex", "gemini", "copilot", "droid", "cursor")
FLAGS = ("block", "ask", "approve", "context")


@pytest.fixture(params=AGENTS)
def adapter(request):
    return registry.adapter(request.param)


def test_registry_names_every_agent():
    assert registry.NAMES == ("claude", "codex", "gemini", "copilot", "droid", "cursor")
    assert registry.adapter("claude").__name__ == "cupcake.agents.claude"
    with pytest.raises(ValueError, match="unknown agent 'vim'"):
        registry.adapter("vim")


def test_interface(adapter):
    assert adapter.NAME in AGENTS
    assert adapter.ANSWER_CAP == 10_000
    assert isinstance(adapter.PROJECT_DIR_ENV, tuple)
    assert adapter.SHELL_TOOLS and all(adapter.TOOLS[t] == "Bash" for t in adapter.SHELL_TOOLS)
    assert adapter.FILE_WRITE_TOOLS
    assert "PreToolUse" in adapter.CAPABILITIES and adapter.CAPABILITIES["PreToolUse"]["block"] is True
    for event, line in adapter.CAPABILITIES.items():
        assert line["agent_events"] and all(isinstance(e, str) for e in line["agent_events"])
        assert line["verified"].startswith(("real client", "documented only"))
        for flag in FLAGS:
            assert adapter.action_supported(flag, event) is line[flag], (event, flag)
        if line["block"]:
            assert isinstance(line["reason_seen_as"], str)
    assert adapter.action_supported("inject_context_file", "PreToolUse") is True
    assert adapter.action_supported("block", "NoSuchEvent") is False


def test_cursor_is_documented_only_and_the_others_were_seen():
    for name in AGENTS:
        rows = registry.adapter(name).CAPABILITIES.values()
        pre = registry.adapter(name).CAPABILITIES["PreToolUse"]["verified"]
        if name == "cursor":
            assert all("not verified" in r["verified"] for r in rows)
        else:
            assert pre.startswith("real client")


@pytest.mark.parametrize("raw", [[], "x", None, 3, ["hook_event_name"]])
def test_non_object_input_is_refused_clearly(adapter, raw):
    with pytest.raises(ValueError, match="must be a JSON object"):
        adapter.parse(raw, "PreToolUse", {})


def test_no_event_at_all_is_refused(adapter):
    with pytest.raises(ValueError, match="no event"):
        adapter.parse({"session_id": "s"}, None, {})


def test_unknown_event_and_fields_pass_through(adapter):
    raw = {"hook_event_name": "FutureEvent", "session_id": "s", "brand_new": {"deep": [1, 2]}}
    event, payload, _ = adapter.parse(raw, None, {})
    assert event == "FutureEvent"
    assert payload["agent_event"] == "FutureEvent"
    assert payload["brand_new"] == {"deep": [1, 2]}
    assert raw == {"hook_event_name": "FutureEvent", "session_id": "s", "brand_new": {"deep": [1, 2]}}
    for kind, response in RESPONSES.items():
        stdout, stderr, code = adapter.render(event, payload, response)
        assert code == 0
        if kind == "none":
            assert (stdout, stderr) == (b"", b"")


def test_unknown_tool_passes_through_unchanged(adapter):
    pre = adapter.CAPABILITIES["PreToolUse"]["agent_events"][0]
    raw = {"hook_event_name": pre, "tool_name": "quantum_teleport", "tool_input": {"where": "mars"}}
    event, payload, _ = adapter.parse(raw, pre, {})
    assert event == "PreToolUse"
    assert payload["tool_name"] == "quantum_teleport" == payload["agent_tool"]
    assert payload["tool_input"] == {"where": "mars"}


def test_canonical_and_agent_event_names_are_both_accepted(adapter):
    for canonical, line in adapter.CAPABILITIES.items():
        agent_event = line["agent_events"][0]
        assert adapter.parse({}, agent_event, {})[0] == canonical
        event, payload, _ = adapter.parse({}, canonical, {})
        assert event == canonical and payload["agent_event"] == agent_event


def test_event_arg_wins_over_the_payload(adapter):
    pre = adapter.CAPABILITIES["PreToolUse"]["agent_events"][0]
    event, _, _ = adapter.parse({"hook_event_name": "SessionEnd"}, pre, {})
    assert event == "PreToolUse"


SURROGATE = "rm -rf \ud800/x"


@pytest.mark.parametrize("kind", list(RESPONSES))
def test_a_lone_surrogate_never_crashes_render(adapter, kind):
    for canonical, line in adapter.CAPABILITIES.items():
        raw = {"hook_event_name": line["agent_events"][0], "tool_name": "x", "tool_input": {"command": SURROGATE}}
        event, payload, _ = adapter.parse(raw, None, {})
        r = RESPONSES[kind]
        bad = Response(
            r.decision,
            r.text and r.text + SURROGATE,
            r.soft_text and SURROGATE,
            r.reason and SURROGATE,
            r.context and SURROGATE,
            r.fail_closed,
        )
        stdout, stderr, code = adapter.render(event, payload, bad, ("warn \udfff",))
        assert code == 0
        stdout.decode("utf-8")
        stderr.decode("utf-8")
        if stdout:
            json.loads(stdout)


def test_answers_are_capped(adapter):
    long = "x" * 30_000
    for canonical, line in adapter.CAPABILITIES.items():
        event, payload, _ = adapter.parse({}, line["agent_events"][0], {})
        for r in (
            Response("block", long),
            Response("soft", long),
            Response(context=long),
            Response("approve", reason="r", soft_text=long),
            Response("error", long, fail_closed=True),
        ):
            stdout, stderr, _ = adapter.render(event, payload, r)
            for text in _strings(json.loads(stdout) if stdout else {}):
                assert len(text) <= 10_000
            assert len(stderr.decode()) <= 10_001


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)


def test_warnings_reach_someone(adapter):
    event, payload, _ = adapter.parse({}, adapter.CAPABILITIES["PreToolUse"]["agent_events"][0], {})
    stdout, stderr, _ = adapter.render(event, payload, Response(), ("audit log not written",))
    assert b"audit log not written" in stdout + stderr


@pytest.mark.parametrize("name", AGENTS)
def test_the_hot_path_imports_no_json_or_re(name):
    code = (
        "import sys; from cupcake import agents as registry; a = registry.adapter(%r);"
        "from cupcake.pipeline.response import Response;"
        "e, p, d = a.parse({'hook_event_name': 'x', 'tool_name': 'y'}, a.CAPABILITIES['PreToolUse']['agent_events'][0], {});"
        "a.render(e, p, Response('block', 'no'));"
        "print(sorted(m for m in ('json', 're', 'typing', 'enum', 'dataclasses', 'subprocess') if m in sys.modules))"
    ) % name
    repo = os.path.dirname(os.path.dirname(cupcake.__file__))
    # -S: no site (an editable install's import finder imports `re` itself)
    done = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True, env={"PYTHONPATH": repo}
    )
    assert done.stdout.strip() == "[]"
    # The settings editors read JSON (an agent's install module only names paths: the OS layer reads those
    # warm, and the hook-file editor imports json only where it edits).
    settings = "settings_file"
    install = code.replace("print(", "import cupcake.agents.%s; print(" % settings)
    done = subprocess.run(
        [sys.executable, "-S", "-c", install], capture_output=True, text=True, check=True, env={"PYTHONPATH": repo}
    )
    assert "json" in done.stdout  # the check above can fail: installing is off the hot path and may use json
