"""1000 · The audit trail, in a fake context: written when the settings ask for it and something
happened, and a line that says what was decided."""

from __future__ import annotations

import json

from cupcake.pipeline.context import HardDecision
from cupcake.pipeline.response import BLOCK, Response
from cupcake.systems.audit_write import AuditWrite, _whole
from tests.fakes import BLOCK as BLOCK_ACTION
from tests.fakes import policy

AUDITED = "[settings]\naudit_logging = true\n"


def test_a_matched_policy_is_written_to_the_trail(fakes):
    ctx = fakes.context(AUDITED + policy("no-rm", BLOCK_ACTION), tool_input={"command": "rm x"})
    system = AuditWrite()
    assert not system.should_process(ctx)  # nothing happened yet
    ctx.matched = [0]
    ctx.hard = HardDecision("block", "Use trash.", "no-rm")
    ctx.response = Response(BLOCK, text="Operation blocked: Use trash.")
    assert system.should_process(ctx)
    system.process(ctx)
    [line] = (fakes.root / ".cupcake" / "audit.log").read_text().splitlines()
    record = json.loads(line)
    assert record["event"] == "PreToolUse" and "no-rm" in json.dumps(record)


def test_without_audit_logging_nothing_is_written_unless_a_person_let_a_call_through(fakes):
    ctx = fakes.context(policy("no-rm", BLOCK_ACTION), tool_input={"command": "rm x"})
    ctx.matched = [0]
    assert not AuditWrite().should_process(ctx)
    ctx.ext["cupcake.approvals"] = {"used": ["ABC123"]}
    assert AuditWrite().should_process(ctx)
    assert not AuditWrite().should_process(fakes.context(None))


def test_every_run_is_written_with_audit_allows(fakes):
    ctx = fakes.context(AUDITED + "audit_allows = true\n", tool_input={"command": "ls"})
    assert AuditWrite().should_process(ctx)


def test_a_size_setting_that_is_not_a_whole_number_falls_back():
    assert _whole(5, 1, 1) == 5
    assert [_whole(v, 7, 1) for v in (0, True, 2.5, "3", None)] == [7, 7, 7, 7, 7]
