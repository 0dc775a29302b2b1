"""The audit trail: .cupcake/audit.log, its records and rotation, and `cupcake audit` (with --follow)."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest
from pytest_bdd import given, parsers, then, when

from tests.conftest import cupcake_executable
from tests.features.steps.helpers import _send


def _audit_log(project):
    return project.root / ".cupcake" / "audit.log"


def _audit_lines(project) -> list[bytes]:
    path = _audit_log(project)
    return path.read_bytes().splitlines() if path.exists() else []


def _last_record(project) -> dict:
    lines = _audit_lines(project)
    assert lines, "the audit log is empty or missing"
    return json.loads(lines[-1])


def _expected(value: str):
    """A table cell: JSON (control characters allowed: Gherkin turns "\\n" into a newline)."""
    return json.loads(value, strict=False)


def _stdout_lines(run) -> list[str]:
    return run.answer.stdout.decode().splitlines()


def _columns(line: str) -> str:
    """A table line with its padding collapsed to two spaces between cells."""
    import re

    return re.sub(r" {2,}", "  ", line.strip())


@given(parsers.parse("the audit log holds the runs:"))
def audit_log_holds(project, run, datatable):
    """One Bash tool call per row, with the row's session id and command; each leaves one audit record."""
    header, *rows = datatable
    for row in rows:
        cells = dict(zip(header, row))
        project.session_id = cells["session"]
        _send(project, run, project.tool_call("Bash", {"command": cells["command"]}))
    assert len(_audit_lines(project)) == len(rows)


@given(parsers.parse("an audit record written {hours:d} hours ago"))
def audit_record_hours_ago(project, run, monkeypatch, hours):
    """One blocked `rm -rf data`, recorded with a clock that many hours in the past."""
    import types

    import cupcake.stores.audit.record as record

    real = record.time
    past = types.SimpleNamespace(
        time=lambda: real.time() - hours * 3600, gmtime=real.gmtime, strftime=real.strftime, monotonic=real.monotonic
    )
    with monkeypatch.context() as patch:
        patch.setattr(record, "time", past)
        _send(project, run, project.tool_call("Bash", {"command": "rm -rf data"}))


@given("the audit log cannot be written")
def audit_log_unwritable(project):
    """A directory stands where .cupcake/audit.log should be, so it cannot be opened for writing."""
    (project.root / ".cupcake" / "audit.log").mkdir(parents=True)  # a directory: open() fails, even for root


@given(parsers.parse('the audit log is a symbolic link to "{name}"'))
def audit_log_symlink(project, name):
    """.cupcake/audit.log is a symbolic link to a file of that name in the project."""
    (project.root / ".cupcake").mkdir()
    os.symlink(project.root / name, _audit_log(project))


@when(parsers.parse("the agent runs {count:d} commands"))
def agent_runs_many(project, run, count):
    """The agent asks to run `echo 1` … `echo N`, one tool call after another."""
    for i in range(1, count + 1):
        _send(project, run, project.tool_call("Bash", {"command": f"echo {i}"}))


@when(parsers.parse('{count:d} tool calls "{command}" run at the same time'))
def parallel_calls(project, run, count, command):
    """Separate `cupcake run` processes, as Claude Code starts them for parallel tool calls (the policy
    cache built first, as the session's first call leaves it)."""
    from concurrent.futures import ThreadPoolExecutor

    from cupcake.stores.policies.loader import load

    assert load(str(project.root), project.env(), use_cache=False).compiled["out_of_service"] is None
    payload = project.tool_call("Bash", {"command": command})
    # the installed executable builds the cache, as a first call would (one that matches nothing: no audit line)
    warm = project.send_process(project.tool_call("Bash", {"command": "true"}))
    assert warm.code == 0 and warm.stdout == b"", warm
    with ThreadPoolExecutor(max_workers=count) as pool:
        answers = list(pool.map(lambda _i: project.send_process(payload, timeout=120), range(count)))
    for answer in answers:
        assert answer.code == 0 and answer.specific.get("permissionDecision") == "deny", answer
    run.answer = answers[-1]


@when(parsers.parse('someone edits line {number:d} of the audit log, replacing "{old}" with "{new}"'))
def edit_audit_line(project, number, old, new):
    """Someone tampers with a record of the audit log: one JSON value is replaced by another."""
    lines = _audit_lines(project)
    assert old.encode() in lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(f'"{old}"'.encode(), f'"{new}"'.encode())
    _audit_log(project).write_bytes(b"\n".join(lines) + b"\n")


@when(parsers.parse("someone removes line {number:d} of the audit log"))
def remove_audit_line(project, number):
    """Someone removes one record from the audit log."""
    lines = _audit_lines(project)
    del lines[number - 1]
    _audit_log(project).write_bytes(b"\n".join(lines) + b"\n")


@pytest.fixture
def follower(project):
    """`cupcake audit --follow` as its own process; stopped at the end of the scenario."""
    holder = {}
    yield holder
    proc = holder.get("proc")
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()


def _read_line(proc, timeout: float) -> str:
    import select

    ready, _w, _x = select.select([proc.stdout], [], [], timeout)
    assert ready, f"the follower printed nothing within {timeout} s"
    return proc.stdout.readline().decode()


@when("the person follows the audit trail")
def follow_trail(project, follower):
    """`cupcake audit --follow` is started as its own process; it prints its header and the latest record."""
    proc = subprocess.Popen(
        [cupcake_executable(), "audit", "--follow"],
        cwd=project.cwd,
        env=project.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    )
    follower["proc"] = proc
    assert _read_line(proc, 20).startswith("TIME (UTC)")
    follower["history"] = _read_line(proc, 20)


@when("the person presses Ctrl-C")
def press_ctrl_c(follower):
    """The follower is interrupted as a person pressing Ctrl-C would (SIGINT)."""
    import signal

    follower["proc"].send_signal(signal.SIGINT)


@then(parsers.parse('the follower prints a row with "{text}"'))
def follower_prints(follower, text):
    """The follower prints a new row holding the text (padding aside) within 20 seconds."""
    line = _read_line(follower["proc"], 20)
    assert _columns(text) in _columns(line), line


@then(parsers.parse("the follower ends with exit code {code:d} and no stack trace"))
def follower_ends(follower, code):
    """After Ctrl-C the follower ends with the exit code and prints no traceback."""
    proc = follower["proc"]
    assert proc.wait(timeout=20) == code
    err = proc.stderr.read().decode()
    assert "Traceback" not in err and "Aborted" not in err, err


@then(parsers.re(r"the audit log has (?P<count>\d+) lines?"))
def audit_line_count(project, count):
    """The audit log holds exactly that many records."""
    assert len(_audit_lines(project)) == int(count), _audit_lines(project)


@then("there is no audit log")
def no_audit_log(project):
    """No audit log was written."""
    assert not _audit_log(project).exists()


@then(parsers.parse("the last audit record says:"))
def last_record_says(project, datatable):
    """Each field of the last audit record has the value in the table (a JSON cell)."""
    record = _last_record(project)
    for field, value in datatable[1:]:
        assert record.get(field) == _expected(value), (field, record.get(field))


@then("the last audit record was written just now, in UTC")
def record_time(project):
    """The last audit record's time is an ISO-8601 UTC stamp, with milliseconds, of the last minute."""
    import calendar
    import re

    stamp = _last_record(project)["time"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", stamp), stamp
    written = calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S"))
    assert abs(time.time() - written) < 60, stamp


@then("the last audit record took a number of milliseconds")
def record_duration(project):
    """The last audit record says how many milliseconds the run took."""
    ms = _last_record(project)["ms"]
    assert isinstance(ms, (int, float)) and 0 < ms < 60_000, ms


@then(parsers.parse('the last audit record names the failure "{text}"'))
def record_failure(project, text):
    """The last audit record names a failure, one that decided the answer, with this message."""
    failures = _last_record(project)["failures"]
    assert any(text.replace('\\"', '"') in f["message"] and f["decides"] for f in failures), failures


@then(parsers.parse('the last audit record\'s input is the path of "{path}"'))
def record_input_path(project, path):
    """The last audit record's input is only the file path (the content is not kept)."""
    assert _last_record(project)["input"] == {"file_path": str(project.cwd / path)}


@then(parsers.parse('the last audit record\'s command is "{command}"'))
def record_command(project, command):
    """The last audit record's input holds the command the agent asked to run."""
    assert _last_record(project)["input"]["command"] == command


@then(parsers.parse('the last audit record ran the command "{command}" with exit code {code:d}'))
def record_ran_command(project, command, code):
    """The last audit record lists the one command a policy ran, its exit code and how long it took."""
    commands = _last_record(project)["commands"]
    assert [(c["command"], c["exit_code"], c["ok"]) for c in commands] == [(command, code, code == 0)], commands
    assert isinstance(commands[0]["ms"], (int, float)) and commands[0]["ms"] >= 0, commands


@then(parsers.parse('the audit log does not contain "{text}"'))
def log_lacks(project, text):
    """The audit log is not empty and nowhere contains the text (a secret stays out of it)."""
    data = _audit_log(project).read_bytes()
    assert data, "the audit log is empty"
    assert text.encode() not in data


@then("the audit log can be read and written by its owner only")
def log_private(project):
    """The audit log's permissions are 0600: no one but its owner can read it."""
    import stat

    assert stat.S_IMODE(_audit_log(project).stat().st_mode) == 0o600


@then("every line of the audit log is a whole JSON record")
def whole_lines(project):
    """Every line of the audit log is one whole record of a blocked call: no line was torn."""
    for line in _audit_lines(project):
        record = json.loads(line)
        assert record["v"] == 1 and record["decision"] in ("block", "error"), record  # an error that blocked


@then(parsers.parse("the audit records are numbered {first:d} to {last:d}"))
def records_numbered(project, first, last):
    """The audit records' sequence numbers run from first to last without a gap."""
    assert [json.loads(line)["seq"] for line in _audit_lines(project)] == list(range(first, last + 1))


@then(parsers.parse('the audit log was rotated into "{name}"'))
def rotated_into(project, name):
    """The audit log was rotated: the older records are in a file of that name in .cupcake/."""
    assert (project.root / ".cupcake" / name).is_file()


@then(parsers.parse("every audit file is at most {size:d} bytes"))
def audit_files_size(project, size):
    """There is more than one audit file, and none is larger than the size."""
    files = list((project.root / ".cupcake").glob("audit.log*"))
    assert len(files) > 1 and all(f.stat().st_size <= size for f in files), [(f.name, f.stat().st_size) for f in files]


@then(parsers.parse('the audit files are "{names}"'))
def audit_files(project, names):
    """The audit files in .cupcake/ are exactly these (comma-separated names)."""
    found = sorted(f.name for f in (project.root / ".cupcake").glob("audit.log*"))
    assert found == sorted(n.strip() for n in names.split(",")), found


@then(parsers.re(r"the output lists (?P<count>\d+) records?"))
def output_lists(run, count):
    """`cupcake audit` printed that many lines (one per record)."""
    lines = _stdout_lines(run)
    assert len(lines) == int(count), run.answer


@then(parsers.parse("the output lists the records numbered {first:d} to {last:d}"))
def output_numbered(run, first, last):
    """`cupcake audit` printed the records with these sequence numbers, in order."""
    assert [json.loads(line)["seq"] for line in _stdout_lines(run)] == list(range(first, last + 1))


@then(parsers.parse("every record listed has {field} {value}"))
def every_record_has(run, field, value):
    """Every record printed has the field with the value (JSON), "one of" several, or "containing" one."""
    for line in _stdout_lines(run):
        got = json.loads(line).get(field)
        if value.startswith("one of "):
            assert got in json.loads(f"[{value[7:]}]"), got
        elif value.startswith("containing "):
            assert json.loads(value[11:]) in got, got
        else:
            assert got == json.loads(value), got


@then(parsers.parse('the output has the columns "{header}"'))
def output_columns(run, header):
    """The first line printed is the table header with these columns."""
    assert _columns(_stdout_lines(run)[0]) == header, run.answer.text


@then(parsers.parse('the output has a row with "{text}"'))
def output_row(run, text):
    """Some row printed holds the text (padding collapsed to two spaces)."""
    assert any(text in _columns(line) for line in _stdout_lines(run)), run.answer.text


@then(parsers.parse('the last audit record notes "{text}"'))
def last_record_notes(project, text):
    """Notes kept for the audit trail only (``notes`` by namespace), never shown to the agent."""
    record = _last_record(project)
    assert any(text in note for notes in record["notes"].values() for note in notes), record


@then(parsers.parse('the page "{name}" has the sections "{sections}"'))
def page_sections(terminal, name, sections):
    """The HTML page holds a second-level heading for each of the comma-separated sections."""
    html = terminal.file(name).read_text()
    for section in sections.split(", "):
        assert f"<h2>{section}</h2>" in html, section


@then(parsers.parse('the page "{name}" names "{text}"'))
def page_names(terminal, name, text):
    """The text (escaped as HTML) is on the page."""
    from html import escape

    assert escape(text) in terminal.file(name).read_text()


@then(parsers.parse('the page "{name}" loads nothing from the network'))
def page_self_contained(terminal, name):
    """No tag that fetches (script, img, link, iframe…), no src or href, no url() in its CSS, and a
    Content-Security-Policy that forbids loading anything."""
    from tests.stores.audit.test_html_report import _markup

    html = terminal.file(name).read_text()
    tags, styles = _markup(html)
    assert not {"script", "img", "link", "iframe", "object", "embed"} & {t for t, _a in tags}
    assert not [a for _t, attrs in tags for a, _v in attrs if a in ("src", "href", "srcset")]
    assert not any("url(" in css or "@import" in css for css in styles)
    assert "default-src 'none'" in html
