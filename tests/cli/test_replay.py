"""`cupcake replay` tells the truth (issue 24, item 4): a call the record cannot decide is named, not
guessed, and "of M" says which calls M counts. Through the installed executable: real hook runs write
the audit log and the session state, then `cupcake replay` reads them in a fresh process."""

from __future__ import annotations

import json
import subprocess

from tests.conftest import cupcake_executable

CONTENT_POLICY = """\
[settings]
audit_logging = true

[[policy]]
name = "No console.log"
matcher = "Write"
conditions = [{ type = "file_content_regex", value = "console\\\\.log" }]
action = { type = "provide_feedback", message = "Remove console.log" }

[[policy]]
name = "No force push"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "push --force" }]
action = { type = "provide_feedback", message = "Push normally" }
"""


def _cli(project, *args):
    return subprocess.run(
        [cupcake_executable(), *args], capture_output=True, text=True, cwd=project.root, env=project.env(), timeout=60
    )


def _records(project) -> list:
    return [json.loads(line) for line in (project.root / ".cupcake" / "audit.log").read_text().splitlines()]


def _session(project):
    """A Write with console.log (feedback), then `ls` and `git status` go ahead unlogged (nothing matched)
    and are recorded in the session state (PostToolUse), then a force push (feedback)."""
    send = project.send_process
    send(project.tool_call("Write", {"file_path": project.path("app.js"), "content": "console.log(1)\n"}))
    for command in ("ls", "git status"):
        send(project.tool_call("Bash", {"command": command}))
        send(project.tool_call("Bash", {"command": command}, event="PostToolUse"))
    send(project.tool_call("Bash", {"command": "git push --force"}))


def test_a_write_whose_contents_were_not_recorded_is_not_judged_and_unlogged_calls_are_counted(project):
    project.write_policy(CONTENT_POLICY)
    _session(project)
    write, push = _records(project)
    assert (write["tool"], write["decision"], push["decision"]) == ("Write", "feedback", "feedback")

    # The policies change: force pushes now block, and `git status` too (but that call was never logged).
    project.write_policy(
        CONTENT_POLICY.replace(
            'provide_feedback", message = "Push normally"', 'block_with_feedback", feedback_message = "No"'
        )
        + '\n[[policy]]\nname = "No status"\nmatcher = "Bash"\n'
        'conditions = [{ type = "command_regex", value = "git status" }]\n'
        'action = { type = "block_with_feedback", feedback_message = "No" }\n'
    )
    done = _cli(project, "replay")
    assert (done.stderr, done.returncode) == ("", 0)
    assert done.stdout == (
        "Replayed 2 logged call(s) through the current policies: 1 would change; 1 cannot be judged from the record"
        " (below).\n"
        "  No force push would have blocked 1 of 1 logged call(s) that can be judged\n"
        f"  {push['time']} Bash: 'git push --force': feedback -> block\n"
        "Cannot be judged (1): the outcome hangs on what the record does not hold\n"
        f"  {write['time']} Write: 'app.js': No console.log: file contents are not recorded\n"
        "Not logged: calls allowed with no policy matching (audit_allows = false): 2 more call(s) went ahead"
        f" unlogged since {write['time']}, by the session state in .cupcake/state/ (sessions whose state is gone"
        " are not counted; audit_allows = true logs every call).\n"
    )
    data = json.loads(_cli(project, "replay", "--json").stdout)
    assert (data["events"], data["judged"], data["not_logged"]["count"]) == (2, 1, 2)
    assert data["cannot_judge"][0]["reasons"] == ["No console.log: file contents are not recorded"]


def test_a_transcript_keeps_the_whole_input_so_its_writes_are_judged(project):
    project.write_policy(CONTENT_POLICY)
    transcript = project.root / "session.jsonl"
    line = {
        "type": "assistant",
        "timestamp": "2025-01-31T12:00:00.000Z",
        "cwd": str(project.root),
        "sessionId": "s1",
        "message": {
            "content": [
                {"type": "tool_use", "name": "Write", "input": {"file_path": "app.js", "content": "console.log(1)"}}
            ]
        },
    }
    transcript.write_text(json.dumps(line) + "\n")
    done = _cli(project, "replay", "session.jsonl")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "Replayed 1 recorded call(s) through the current policies: 1 would change.\n"
        "  2025-01-31T12:00:00.000Z Write: 'app.js': allow -> feedback\n"
    )


def test_with_audit_allows_every_call_is_logged_and_replay_says_so(project):
    project.write_policy(CONTENT_POLICY.replace("audit_logging = true", "audit_logging = true\naudit_allows = true"))
    project.send_process(project.tool_call("Bash", {"command": "ls"}))
    done = _cli(project, "replay")
    assert done.stdout == (
        "Replayed 1 logged call(s) through the current policies: 0 would change.\n"
        "Not logged: none (audit_allows = true logs every call).\n"
    )


def test_a_state_condition_cannot_be_judged_from_the_log(project):
    project.write_policy(
        "[settings]\naudit_logging = true\n\n"
        '[[policy]]\nname = "Read the notes first"\nmatcher = "Write"\n'
        'conditions = [{ type = "state_missing", tool = "Read", path = "NOTES.md" }]\n'
        'action = { type = "block_with_feedback", feedback_message = "Read NOTES.md first" }\n'
    )
    project.send_process(project.tool_call("Write", {"file_path": project.path("a.txt"), "content": "x"}))
    done = _cli(project, "replay")
    assert "1 cannot be judged" in done.stdout
    assert "Write: 'a.txt': Read the notes first: the session's state at the time is not recorded\n" in done.stdout


def test_a_policy_out_of_service_is_told_once(project):
    project.write_policy(CONTENT_POLICY)
    project.send_process(project.tool_call("Bash", {"command": "git push --force"}))
    project.send_process(project.tool_call("Bash", {"command": "git push --force"}))
    project.write_policy(
        CONTENT_POLICY + '\n[[policy]]\nname = "broken"\nconditions = [{ type = "command_regex", value = "(" }]\n'
        'action = { type = "block_with_feedback", feedback_message = "x" }\n'
    )
    done = _cli(project, "replay")
    assert done.returncode == 0
    assert done.stderr.startswith("Cupcake: out of service until fixed (every other policy is enforced):\n")
    assert done.stderr.count("out of service") == 1 and 'policy "broken"' in done.stderr
    assert done.stdout.startswith("Replayed 2 logged call(s) through the current policies: 0 would change.\n")
