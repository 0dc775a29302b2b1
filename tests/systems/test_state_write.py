"""900 · After the decision, in a fake context: the tool use and custom events are recorded in the
session's log, an ended session is removed, and what cannot be recorded is a warning."""

from __future__ import annotations

import json

from cupcake.pipeline.response import BLOCK, NONE, Response
from cupcake.systems.state_write import StateWrite
from tests.fakes import policy


def _log(fakes) -> list[dict]:
    folder = fakes.root / ".cupcake" / "state"
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    return [json.loads(line) for path in files for line in path.read_text().splitlines()]


def test_a_tool_use_after_the_fact_is_recorded(fakes):
    ctx = fakes.context("", event="PostToolUse", tool_input={"command": "ls"}, tool_response={"stdout": ""})
    system = StateWrite()
    assert system.should_process(ctx)
    system.process(ctx)
    [entry] = _log(fakes)
    assert entry["tool"] == "Bash" and entry["success"] is True


def test_a_custom_event_is_recorded_only_when_the_operation_goes_ahead(fakes):
    toml = policy("note", '{ type = "update_state", event = "deployed" }', "deploy")
    blocked = fakes.context(toml, tool_input={"command": "deploy"})
    blocked.matched, blocked.response = [0], Response(BLOCK, text="no")
    assert StateWrite().should_process(blocked)
    StateWrite().process(blocked)
    assert _log(fakes) == []
    ahead = fakes.context(toml, tool_input={"command": "deploy"})
    ahead.matched, ahead.response = [0], Response(NONE)
    StateWrite().process(ahead)
    assert [e.get("event") for e in _log(fakes)] == ["deployed"]


def test_nothing_is_written_for_a_project_without_cupcake_or_an_event_with_nothing_to_record(fakes):
    assert not StateWrite().should_process(fakes.context(None, event="PostToolUse"))
    assert not StateWrite().should_process(fakes.context("", tool_input={"command": "ls"}))


def test_no_session_id_is_a_warning_not_a_failure(fakes):
    ctx = fakes.context("", event="PostToolUse", tool_input={"command": "ls"}, session_id=None)
    StateWrite().process(ctx)
    assert ctx.warnings == ["Cupcake: the event has no session_id, so this tool use was not recorded"]


def test_a_session_that_ends_for_good_is_removed(fakes):
    used = fakes.context("", event="PostToolUse", tool_input={"command": "ls"})
    StateWrite().process(used)
    assert _log(fakes)
    ended = fakes.context("", event="SessionEnd", tool=None, reason="clear")
    assert StateWrite().should_process(ended)
    StateWrite().process(ended)
    assert _log(fakes) == []
    resumed = fakes.context("", event="SessionEnd", tool=None, reason="prompt_input_exit")
    assert not StateWrite().should_process(resumed)
