"""A decision as an OTLP span: the names a backend groups and filters by, secrets masked before they leave
the machine, identifiers hashed when the team asks, under the agent's trace when it gave one."""

from __future__ import annotations

from cupcake.compile.telemetry import merge
from cupcake.telemetry import config, otlp

from .standin import attributes

RECORD = {
    "v": 1,
    "trace": "0af7651916cd43dd8448eb211c80319c",
    "span": "b7ad6b7169203331",
    "start": 1_795_615_541_404_576_847,
    "end": 1_795_615_541_406_159_148,
    "event": "PreToolUse",
    "agent": "cursor",
    "version": "1.7.2",
    "model": "claude-sonnet",
    "decision": "block",
    "by": "git.force-push",
    "reason": "Operation blocked: force-pushing rewrites history",
    "fired": [
        ["feedback: careful", "feedback", "Mind the branch", "cupcake.toml", 12],
        ["git.force-push", "block", "force-pushing rewrites history", "cupcake:git", None],
    ],
    "failures": [],
    "warnings": 0,
    "root": "/srv/work/payments",
    "user": "ada",
    "uid": 1000,
    "parent": None,
    "cupcake": "0.1.0",
    "tool": "Bash",
    "agent_tool": "Shell",
    "call": "call_1",
    "session": "8f14e45f-ceea-467e-9e2e-2a1b3c4d5e6f",
    "input": {"command": "git push --force https://deploy:hunter2@git.example/r.git", "description": "push"},
}


def shaper(hash_=(), env=None, host="ws-17"):
    tiers = {"project": {"hash": list(hash_)}} if hash_ else {}
    return otlp.Shaper(config.resolve(merge(tiers), env or {}), host=host)


def test_a_span_carries_the_decision_every_rule_that_fired_and_what_the_agent_was_doing():
    span = shaper().span(RECORD)
    assert (span["traceId"], span["spanId"], span["name"], span["kind"]) == (
        RECORD["trace"],
        RECORD["span"],
        "cupcake PreToolUse",
        1,
    )
    assert (span["startTimeUnixNano"], span["endTimeUnixNano"]) == (str(RECORD["start"]), str(RECORD["end"]))
    assert "status" not in span and "parentSpanId" not in span
    assert attributes(span) == {
        "service.name": "cupcake",
        "service.version": "0.1.0",
        "host.name": "ws-17",
        "cupcake.version": "0.1.0",
        "cupcake.event": "PreToolUse",
        "cupcake.decision": "block",
        "cupcake.decided_by": "git.force-push",
        "cupcake.reason": "Operation blocked: force-pushing rewrites history",
        "cupcake.rules": ["feedback: careful", "git.force-push"],
        "cupcake.project": "payments",
        "cupcake.project.dir": "/srv/work/payments",
        "gen_ai.agent.name": "cursor",
        "cupcake.agent.version": "1.7.2",
        "gen_ai.request.model": "claude-sonnet",
        "gen_ai.tool.name": "Bash",
        "cupcake.agent.tool": "Shell",
        "gen_ai.tool.call.id": "call_1",
        "gen_ai.conversation.id": "8f14e45f-ceea-467e-9e2e-2a1b3c4d5e6f",
        "user.name": "ada",
        "cupcake.tool.input.command": "git push --force https://deploy:***@git.example/r.git",
    }
    assert [(e["name"], attributes(e)) for e in span["events"]] == [
        (
            "cupcake.rule",
            {
                "cupcake.rule.name": "feedback: careful",
                "cupcake.rule.action": "feedback",
                "cupcake.rule.reason": "Mind the branch",
                "cupcake.rule.source": "cupcake.toml:12",
            },
        ),
        (
            "cupcake.rule",
            {
                "cupcake.rule.name": "git.force-push",
                "cupcake.rule.action": "block",
                "cupcake.rule.reason": "force-pushing rewrites history",
                "cupcake.rule.source": "cupcake:git",
            },
        ),
    ]


def test_the_resource_says_what_a_backend_groups_by_and_the_span_repeats_it():
    out = shaper(env={"OTEL_RESOURCE_ATTRIBUTES": "team=payments", "OTEL_SERVICE_NAME": "cupcake-fleet"})
    body = out.traces([out.span(RECORD)])
    resource = attributes(body["resourceSpans"][0]["resource"])
    assert resource == {
        "team": "payments",
        "service.name": "cupcake-fleet",
        "service.version": "0.1.0",
        "host.name": "ws-17",
    }
    span = attributes(body["resourceSpans"][0]["scopeSpans"][0]["spans"][0])
    assert (span["service.name"], span["host.name"]) == ("cupcake-fleet", "ws-17")
    assert body["resourceSpans"][0]["scopeSpans"][0]["scope"] == {"name": "cupcake", "version": "0.1.0"}


def test_identifiers_are_hashed_where_the_team_asks():
    span = attributes(shaper(hash_=("session", "user", "host")).span(RECORD))
    assert span["gen_ai.conversation.id"] == otlp.hashed(RECORD["session"]) != RECORD["session"]
    assert len(span["gen_ai.conversation.id"]) == 32
    assert span["user.name"] == otlp.hashed("ada") and span["host.name"] == otlp.hashed("ws-17")


def test_secrets_are_masked_in_every_text_that_leaves_the_machine():
    record = dict(RECORD, reason="token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked")
    record["fired"] = [["x", "block", "AWS key AKIAABCDEFGHIJKLMNOP found", "cupcake.toml", 1]]
    record["input"] = {
        "command": "curl -H 'Authorization: Bearer abc.def.ghi' https://x",
        "prompt": "my password=hunter2",
    }
    span = shaper().span(record)
    text = repr(span)
    for secret in ("ghp_abcdefghijklmnop", "AKIAABCDEFGHIJKLMNOP", "abc.def.ghi", "hunter2"):
        assert secret not in text


def test_under_the_agents_trace_when_the_hook_was_given_one():
    parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    span = shaper().span(dict(RECORD, parent=parent))
    assert (span["traceId"], span["parentSpanId"], span["spanId"]) == (
        "4bf92f3577b34da6a3ce929d0e0e4736",
        "00f067aa0ba902b7",
        RECORD["span"],
    )
    for broken in ("00-0000-1111-01", "00-" + "0" * 32 + "-00f067aa0ba902b7-01", "garbage"):
        span = shaper().span(dict(RECORD, parent=broken))
        assert span["traceId"] == RECORD["trace"] and "parentSpanId" not in span


def test_a_run_that_failed_is_an_error_span_and_an_error_log_record():
    record = dict(RECORD, decision="error", reason="Cupcake: the policy file is not valid TOML", fired=[])
    span = shaper().span(record)
    assert span["status"] == {"code": 2, "message": "Cupcake: the policy file is not valid TOML"}
    log = shaper().log_record(record)
    assert (log["severityNumber"], log["severityText"]) == (17, "ERROR")
    assert attributes(log)["event.name"] == "cupcake.decision"


def test_a_record_without_valid_ids_still_gets_stable_ones():
    record = dict(RECORD, trace="nope", span=None)
    first, second = shaper().span(record), shaper().span(record)
    assert len(first["traceId"]) == 32 and len(first["spanId"]) == 16
    assert (first["traceId"], first["spanId"]) == (second["traceId"], second["spanId"])


def test_the_user_comes_from_the_uid_when_the_hook_had_no_user_variable():
    import pwd

    span = attributes(shaper().span(dict(RECORD, user=None, uid=0)))
    assert span["user.name"] == pwd.getpwuid(0).pw_name
