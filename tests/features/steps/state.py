"""Session state: the session log in .cupcake/state, what Claude Code reports, and clean-up."""

from __future__ import annotations

import json
import os
import subprocess
import time

from pytest_bdd import given, parsers, then, when

from tests.conftest import Answer, cupcake_executable
from tests.features.steps.helpers import _send


def _state_dir(project):
    return project.root / ".cupcake" / "state"


def _log_path(project, session_id=None):
    from cupcake.stores.state.names import state_name

    return _state_dir(project) / f"{state_name(session_id or project.session_id)}.json"


def _with_dirs(project, text: str) -> str:
    return text.replace("$PROJECT", str(project.root)).replace("$HOME", str(project.home))


def _log_entries(project) -> list:
    path = _log_path(project)
    assert path.exists(), f"no session log at {path}"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _age(path, days: float) -> None:
    then = time.time() - days * 86400
    os.utime(path, (then, then))


@given(parsers.parse("the session id is {literal}"))
def session_id_is(project, literal):
    """A JSON string literal ($HOME expanded), or `a string of <n> "<c>"`."""
    if literal.startswith("a string of "):
        count, char = literal[len("a string of ") :].split(" ", 1)
        project.session_id = json.loads(char) * int(count)
    else:
        project.session_id = json.loads(_with_dirs(project, literal))


@given("the events carry no session_id")
def no_session_id(project):
    """The events Claude Code sends carry no session_id."""
    project.session_id = None


@given(parsers.parse("the session log holds:"))
def session_log_holds(project, docstring):
    """The session's log in .cupcake/state holds these lines ($PROJECT and $HOME expanded)."""
    path = _log_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_with_dirs(project, docstring) + "\n")


@given("the session log ends in a line cut short")
def session_log_cut_short(project):
    """The session log's last line was cut short in the middle (as by a crash)."""
    path = _log_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"timestamp": "2026-01-10T10:00:00.000Z", "tool": "Bash", "success": true, "input": {"comm')


@given(parsers.parse('the session log holds {count:d} failed runs of "{command}" from {minutes:d} minutes ago'))
def session_log_old_failures(project, count, command, minutes):
    """The session log holds that many failed runs of the command, all that many minutes old."""
    from cupcake.stores.state.timestamps import iso_timestamp

    path = _log_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    stamp = iso_timestamp(time.time() - minutes * 60)
    entry = {"timestamp": stamp, "tool": "Bash", "success": False, "input": {"command": command}}
    path.write_text("".join(json.dumps(entry) + "\n" for _ in range(count)))


@given(parsers.parse('the state of the session "{session_id}" was last touched {days:d} days ago'))
def old_session_state(project, session_id, days):
    """Another session's log and index, untouched for that many days."""
    log = _log_path(project, session_id)
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text('{"timestamp": "2026-01-10T10:00:00.000Z", "tool": "Read", "success": true, "input": {}}\n')
    index = log.with_suffix(".idx")
    index.write_bytes(b"not a summary")
    for path in (log, index):
        _age(path, days)


@given(parsers.parse('the file "{relative}" was last touched {days:d} days ago'))
def old_file(project, relative, days):
    """A file in the project, untouched for that many days."""
    path = project.root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}\n")
    _age(path, days)


@given(".cupcake/state is a link to a directory outside the project")
def state_dir_is_a_link(project):
    """.cupcake/state is a symbolic link to an empty directory outside the project."""
    outside = project.home / "outside"
    outside.mkdir()
    (project.root / ".cupcake").mkdir(exist_ok=True)
    os.symlink(outside, _state_dir(project))


def _report(project, run, tool, tool_input, failed=False, session_id=None):
    event = "PostToolUseFailure" if failed else "PostToolUse"
    payload = project.tool_call(tool, tool_input, event=event)
    if session_id is not None:
        payload["session_id"] = session_id
    if failed:
        payload.update(error="Exit code 1" if tool == "Bash" else "File does not exist.", is_interrupt=False)
    else:
        payload["tool_response"] = {"type": "text", "file": {"filePath": tool_input.get("file_path", "")}}
    return _send(project, run, payload)


@when(parsers.re(r'Claude Code reports that the agent read "(?P<path>[^"]+)"(?P<other> in another session)?'))
def reports_read(project, run, path, other):
    """Claude Code reports (PostToolUse) that the agent read the file, in this session or another one."""
    _report(
        project, run, "Read", {"file_path": str(project.cwd / path)}, session_id="another-session" if other else None
    )


@when(parsers.parse('Claude Code reports that reading "{path}" failed'))
def reports_read_failed(project, run, path):
    """Claude Code reports (PostToolUseFailure) that reading the file failed."""
    _report(project, run, "Read", {"file_path": str(project.cwd / path)}, failed=True)


@when(parsers.parse('Claude Code reports that "{command}" failed'))
def reports_command_failed(project, run, command):
    """Claude Code reports (PostToolUseFailure) that the Bash command failed."""
    _report(project, run, "Bash", {"command": command, "description": "run"}, failed=True)


@when(parsers.parse('the session ends with the reason "{reason}"'))
def session_ends(project, run, reason):
    """The session ends (SessionEnd) with the reason."""
    _send(project, run, project.payload("SessionEnd", reason=reason))


@when(parsers.parse("Claude Code reports {count:d} Bash commands at once"))
def reports_many_at_once(project, run, count):
    """As many `cupcake run` processes as commands, all started before any is waited for."""
    # the policy cache, built by the installed executable, as in a session under way
    project.send_process(project.tool_call("Bash", {"command": "ls"}))
    procs = []
    for i in range(count):
        command = f"echo {i:03d} " + "x" * 3000  # long lines: a torn write would show
        payload = project.tool_call("Bash", {"command": command, "description": "run"}, event="PostToolUse")
        payload["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}
        proc = subprocess.Popen(
            [cupcake_executable(), "run", "--event", "PostToolUse"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=project.cwd,
            env=project.env(),
        )
        procs.append((proc, json.dumps(payload).encode()))
    for proc, data in procs:
        proc.stdin.write(data)
        proc.stdin.close()
    for proc, _data in procs:
        out, err = proc.stdout.read(), proc.stderr.read()
        assert proc.wait(timeout=60) == 0 and out == b"" and err == b"", (out, err)
    run.answer = Answer(b"", b"", 0)


@then(parsers.parse("the session log's last entry is:"))
def last_entry(project, docstring):
    """The session log's last entry is this JSON, besides a UTC timestamp of the last minute."""
    entry = _log_entries(project)[-1]
    stamp = entry.pop("timestamp", None)
    assert isinstance(stamp, str) and stamp.endswith("Z"), entry
    assert abs(time.time() - _epoch(stamp)) < 60, stamp
    assert entry == json.loads(_with_dirs(project, docstring))


def _epoch(stamp: str) -> float:
    from cupcake.stores.state.timestamps import parse_timestamp

    found = parse_timestamp(stamp)
    assert found is not None, stamp
    return found


@then(parsers.parse('no custom event "{event}" was recorded'))
def no_custom_event(project, event):
    """The session log holds no entry for the custom event."""
    path = _log_path(project)
    entries = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    assert not [e for e in entries if e.get("event") == event], entries


@then(parsers.re(r"the session's state is (?P<outcome>removed|kept)"))
def session_state_outcome(project, outcome):
    """The session's log and index were removed, or the log kept."""
    assert _log_path(project).exists() == (outcome == "kept")
    if outcome == "removed":
        assert not _log_path(project).with_suffix(".idx").exists()


@then(parsers.re(r'the state of the session "(?P<session_id>[^"]+)" is (?P<outcome>removed|kept)'))
def other_session_outcome(project, session_id, outcome):
    """The other session's log and index were removed, or kept."""
    for path in (_log_path(project, session_id), _log_path(project, session_id).with_suffix(".idx")):
        assert path.exists() == (outcome == "kept"), path


@then(parsers.parse('the file "{relative}" is kept'))
def file_kept(project, relative):
    """The file is still there."""
    assert (project.root / relative).exists()


@then("the directory outside the project is still empty")
def outside_empty(project):
    """Nothing was written through the link into the directory outside the project."""
    assert list((project.home / "outside").iterdir()) == []


@then("every file Cupcake wrote is directly inside .cupcake/state, besides the policy cache")
def files_only_in_state(project):
    """Besides cupcake.toml and the policy cache, every file Cupcake wrote is directly in .cupcake/state."""
    allowed = {project.root / "cupcake.toml", project.root / ".cupcake" / "policy.cache"}
    allowed.add(project.home / ".cache" / "cupcake" / "cache-secret")  # the test's set-up, as sync leaves it
    state = _state_dir(project)
    found = []
    for base in (project.root.parent,):
        for dirpath, _dirs, files in os.walk(base):
            for name in files:
                path = type(project.root)(dirpath) / name
                if path in allowed or path.parent == state:
                    continue
                found.append(str(path))
    assert not found, found
    assert _log_path(project).exists()


@then(parsers.parse("the session log holds {count:d} whole entries, one for each command"))
def log_holds_all(project, count):
    """The session log holds exactly one whole line for each command reported: no line was torn or lost."""
    raw = _log_path(project).read_bytes()
    assert raw.endswith(b"\n")
    lines = raw.split(b"\n")[:-1]
    assert len(lines) == count, len(lines)
    commands = sorted(json.loads(line)["input"]["command"] for line in lines)
    assert commands == sorted(f"echo {i:03d} " + "x" * 3000 for i in range(count))
