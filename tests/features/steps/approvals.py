"""Approvals: the code the person is shown, `cupcake allow` with it, and what the agent may not do."""

from __future__ import annotations

import json
import re

from pytest_bdd import given, parsers, then, when

from tests.features.steps.helpers import _answer, _cupcake_cli, _send

_CODE = re.compile(r"cupcake allow ([0-9A-Z]{4}-[0-9A-Z]{4})")


def _code(run) -> str:
    """The code the person was shown: kept once read from the block's user channel."""
    code = getattr(run, "code", None)
    if code is None:
        found = _CODE.search((_answer(run).json or {}).get("systemMessage", ""))
        assert found, run.answer
        code = run.code = found.group(1)
    return code


@given("Cupcake's per-user secret exists")
def per_user_secret(project):
    """The secret `cupcake sync` creates in the person's cache directory (it keys the approval codes)."""
    from cupcake.stores.user_secret import secret

    assert secret(project.env(), create=True)


@then(parsers.parse('the person is shown a code to run with "{command}"'))
def person_shown_code(run, command):
    """The user-only channel (systemMessage) names the command with a code; the code is kept for later steps."""
    message = (_answer(run).json or {}).get("systemMessage", "")
    found = _CODE.search(message)
    assert found and command in message, run.answer
    run.code = found.group(1)


@then("the model is not shown the code")
def model_not_shown_code(run):
    """The code appears nowhere in the answer but the user's channel."""
    rest = dict(_answer(run).json or {})
    rest.pop("systemMessage", None)
    assert run.code not in json.dumps(rest) and run.code.replace("-", "") not in json.dumps(rest), run.answer


@when(parsers.parse('the person runs "cupcake {arguments}" with the code'))
def person_runs_with_code(terminal, run, monkeypatch, arguments):
    """The person, in their own terminal, runs the command with the code they were shown."""
    code = _code(run)
    _cupcake_cli(terminal, run, monkeypatch, f"{arguments} {code}")
    run.code = code


@when(parsers.parse('the agent asks to run "cupcake allow" with the code'))
def agent_runs_allow(project, run):
    """The agent, given the real code, tries `cupcake allow CODE` with its Bash tool."""
    code = _code(run)
    _send(project, run, project.tool_call("Bash", {"command": f"cupcake allow {code}", "description": "approve"}))
    run.code = code


@when(parsers.parse("the person types {count:d} wrong codes"))
def person_types_wrong_codes(terminal, run, monkeypatch, count):
    """`cupcake allow` with codes no block offered, one after another."""
    code = _code(run)
    for n in range(count):
        _cupcake_cli(terminal, run, monkeypatch, f"allow ZZZZ-ZZZ{n}")
    run.code = code


@then("no code was offered")
def no_code_offered(project, run):
    """Nothing was stored for a person to approve, and no answer field holds a code."""
    assert not (project.root / ".cupcake" / "approvals.json").exists()
    assert not (project.root / ".cupcake" / "approval-offers.jsonl").exists()
    assert not _CODE.search(run.answer.stdout.decode()), run.answer


@then(parsers.re(r"the (?P<agent>copilot|cursor) agent asks the person"))
def agent_asks_person(run, agent):
    """The agent's own question to the person (its answer format's ask)."""
    answer = json.loads(run.answer.stdout)
    assert answer.get("permissionDecision") == "ask" or answer.get("permission") == "ask", run.answer
