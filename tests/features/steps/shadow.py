"""Shadow runs: what the shadow log recorded, and what `cupcake shadow report --json` says."""

from __future__ import annotations

import json

from pytest_bdd import parsers, then

WOULD = {"blocked": "block", "asked": "ask", "approved": "approve", "given feedback": "feedback"}


def _shadow_log(project) -> list[dict]:
    path = project.root / ".cupcake" / "shadow.log"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@then(
    parsers.parse(
        'the shadow log records the candidate deciding "{decision}" by "{policy}" where the enforced set decided "{enforced}"'
    )
)
def shadow_candidate_recorded(project, decision, policy, enforced):
    """The last line of .cupcake/shadow.log holds the candidate's decision and policy beside the enforced decision."""
    last = _shadow_log(project)[-1]
    assert last["candidate"]["decision"] == decision and last["candidate"]["policy"] == policy, last
    assert last["enforced"]["decision"] == enforced, last


@then(parsers.re(r"the shadow log has (?P<count>\d+) lines?"))
def shadow_log_lines(project, count):
    """.cupcake/shadow.log holds exactly this many lines (events decided otherwise)."""
    assert len(_shadow_log(project)) == int(count)


@then(parsers.parse('the shadow log records that "{policy}" would have {would}'))
def shadow_observed_recorded(project, policy, would):
    """The last line of .cupcake/shadow.log holds what the observed policy would have done (blocked, asked, …)."""
    last = _shadow_log(project)[-1]
    assert last["observed"].get(policy) == WOULD.get(would, would), last


@then(parsers.parse('the JSON output has "{key}" {value:d}'))
def json_output_number(run, key, value):
    """The command's JSON output has this top-level number."""
    assert json.loads(run.answer.stdout)[key] == value, run.answer


@then(parsers.parse('the JSON output has the change "{change}" {count:d}'))
def json_output_change(run, change, count):
    """`cupcake shadow report --json` counts this many events whose decision changed this way."""
    assert json.loads(run.answer.stdout)["changes"].get(change) == count, run.answer
