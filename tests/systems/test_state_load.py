"""300 · The session's state is read only when a candidate policy asks for it, in a fake context."""

from __future__ import annotations

from cupcake.systems.state_load import StateLoad, candidates_need_state

READ_FIRST = (
    '[[policy]]\nname = "read first"\nmatcher = "Edit"\n'
    'conditions = [{ not = { type = "state_exists", tool = "Read", path = "notes.md" } }]\n'
    'action = { type = "block_with_feedback", feedback_message = "Read notes.md first." }\n'
)


def test_no_state_is_read_when_no_policy_needs_it(fakes):
    ctx = fakes.context('[[policy]]\nname = "x"\naction = { type = "provide_feedback", message = "m" }\n')
    assert not StateLoad().should_process(ctx)


def test_only_a_candidate_of_this_tool_asks_for_state(fakes):
    edit = fakes.context(READ_FIRST, tool="Edit", tool_input={"file_path": "a.py"})
    assert StateLoad().should_process(edit) and candidates_need_state(edit)
    bash = fakes.context(READ_FIRST, tool="Bash", tool_input={"command": "ls"})
    assert StateLoad().should_process(bash) and not candidates_need_state(bash)
    StateLoad().process(bash)
    assert bash.state is None


def test_a_session_with_nothing_recorded_is_empty(fakes):
    ctx = fakes.context(READ_FIRST, tool="Edit", tool_input={"file_path": "a.py"})
    StateLoad().process(ctx)
    assert ctx.state == {} and ctx.warnings == []


def test_without_a_session_id_the_conditions_see_an_empty_session_and_the_user_is_told(fakes):
    ctx = fakes.context(READ_FIRST, tool="Edit", tool_input={"file_path": "a.py"}, session_id=None)
    StateLoad().process(ctx)
    assert ctx.state == {}
    assert ctx.warnings == ["Cupcake: the event has no session_id, so state conditions see an empty session"]
