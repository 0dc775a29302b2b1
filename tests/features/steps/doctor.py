"""`cupcake doctor`: its findings, their fixes, the round trip, its JSON output."""

from __future__ import annotations

import json

from pytest_bdd import parsers, then

from tests.features.steps.helpers import _expand


def _doctor_lines(run):
    return run.answer.stdout.decode().splitlines()


@then("the doctor finds no problem and no warning")
def doctor_all_ok(run):
    """Every finding `cupcake doctor` printed is "ok"."""
    findings = [line for line in _doctor_lines(run)[1:-1] if not line.startswith(" ")]
    assert findings and all(line.startswith("ok ") for line in findings), run.answer


@then(parsers.parse('the doctor reports as ok "{text}"'))
def doctor_ok(run, text):
    """`cupcake doctor` printed an "ok" finding containing the text."""
    assert any(line.startswith("ok ") and _expand(text) in line for line in _doctor_lines(run)), run.answer


@then(parsers.parse('the doctor warns "{text}"'))
def doctor_warns(run, text):
    """`cupcake doctor` printed a warning containing the text; its fix (the next line) is kept for the next steps."""
    lines = _doctor_lines(run)
    matching = [i for i, line in enumerate(lines) if line.startswith("warning ") and _expand(text) in line]
    assert matching, run.answer
    run.fix = lines[matching[0] + 1] if matching[0] + 1 < len(lines) else ""


@then(parsers.parse('the doctor reports the problem "{text}"'))
def doctor_problem(run, text):
    """`cupcake doctor` printed a problem containing the text; its fix (the next line) is kept for the next steps."""
    lines = _doctor_lines(run)
    matching = [i for i, line in enumerate(lines) if line.startswith("problem ") and _expand(text) in line]
    assert matching, run.answer
    run.fix = lines[matching[0] + 1] if matching[0] + 1 < len(lines) else ""


@then(parsers.parse('its fix says "{text}"'))
def fix_says(run, text):
    """The fix of the last warning or problem contains the text."""
    assert run.fix.lstrip().startswith("fix: ") and text in run.fix, run.fix


@then("the doctor reports the round trip's time in milliseconds")
def round_trip_time(run):
    """The doctor's round trip line ends with its time in milliseconds."""
    import re

    line = next(line for line in _doctor_lines(run) if " round trip: " in line)
    assert re.search(r"\((\d+) ms\)$", line), line


@then(parsers.parse("the JSON output says ok is {value}"))
def json_ok(run, value):
    """`cupcake doctor --json` says ok is true or false."""
    assert json.loads(run.answer.stdout)["ok"] is (value == "true")


@then(parsers.parse('the JSON output has a "{status}" finding from the "{check}" check'))
def json_finding(run, status, check):
    """`cupcake doctor --json` has a finding with this status from this check, and a fix."""
    findings = json.loads(run.answer.stdout)["findings"]
    assert any(f["status"] == status and f["check"] == check and f["fix"] for f in findings), findings


@then(parsers.parse("the JSON output has the round trip's exit code {code:d}"))
def json_round_trip(run, code):
    """`cupcake doctor --json` reports the exit code of its round trip through the hook."""
    assert json.loads(run.answer.stdout)["round_trip"]["runs"][0]["exit_code"] == code
