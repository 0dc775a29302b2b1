"""The forwarder: every decision arrives once — not lost while the receiver is down, not sent twice when it
comes back — retries what may pass, stops at what will not, never follows a redirect, and keeps the spool
bounded with a count of what it dropped."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from cupcake.stores import spool
from cupcake.telemetry import batches, forward

from .standin import OtlpStandIn, attributes

POLICY = (
    '[[policy]]\nname = "no-force-push"\nmatcher = "Bash"\n'
    'conditions = [{ type = "command_regex", value = "--force" }]\n'
    'action = { type = "block_with_feedback", feedback_message = "Force-pushing is not allowed." }\n'
    "\n[telemetry]\nenabled = true\ninterval_seconds = 3600\n"
)


@pytest.fixture
def receiver():
    standin = OtlpStandIn().start()
    yield standin
    standin.stop()


def folder(project) -> str:
    return spool.directory(str(project.root / ".cupcake"))


def telemetry_project(project, extra: str = "") -> None:
    project.write_policy(POLICY + extra)
    os.makedirs(folder(project), exist_ok=True)
    with open(os.path.join(folder(project), spool.STAMP), "w") as f:
        f.write("1")  # a forwarder "just started": the runs of the test start none of their own


def decide(project, *commands: str) -> None:
    for command in commands:
        project.send(project.tool_call("Bash", {"command": command}))


def send(project, receiver, retries: int = 0, **env) -> forward.Outcome:
    environment = {**project.env(), "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{receiver.port}", **env}
    return forward.forward(str(project.root), environment, retries=retries)


def commands_of(spans) -> list[str]:
    return [attributes(s)["cupcake.tool.input.command"] for s in spans]


def test_decisions_reach_the_receiver_as_spans_once(project, receiver):
    telemetry_project(project)
    decide(project, "git push --force", "ls")
    outcome = send(project, receiver)
    assert (outcome.sent, outcome.waiting, outcome.error) == ({"traces": 2}, 0, None)
    spans = receiver.spans()
    assert commands_of(spans) == ["git push --force", "ls"]
    assert [attributes(s)["cupcake.decision"] for s in spans] == ["block", "allow"]
    again = send(project, receiver)
    assert again.sent == {} and len(receiver.spans()) == 2
    assert batches.batch_names(folder(project)) == []  # what was accepted is deleted


def test_nothing_is_lost_while_the_receiver_is_down_and_nothing_is_sent_twice_when_it_is_back(project, receiver):
    telemetry_project(project)
    decide(project, "echo 1", "echo 2")
    assert send(project, receiver).sent == {"traces": 2}
    receiver.stop()
    decide(project, "echo 3", "git push --force")
    down = send(project, receiver, retries=1)
    assert down.sent == {} and down.waiting == 2
    assert "cannot reach the endpoint" in down.error
    decide(project, "echo 5")
    assert send(project, receiver).waiting == 3  # still down
    receiver.start()  # the same port
    back = send(project, receiver)
    assert (back.sent, back.waiting, back.error) == ({"traces": 3}, 0, None)
    spans = receiver.spans()
    assert commands_of(spans) == ["echo 1", "echo 2", "echo 3", "git push --force", "echo 5"]
    assert len({s["spanId"] for s in spans}) == 5
    assert batches.read_cursor(folder(project))["sent"] == {"traces": 5}
    assert "last_error" not in batches.read_cursor(folder(project))


def test_a_batch_sent_again_after_a_lost_acknowledgement_keeps_its_ids(project, receiver, monkeypatch):
    """The receiver took the batch, the forwarder died before it wrote the cursor: the batch goes again,
    with the same trace and span ids, so a store that keys on them (MLflow does) keeps one copy."""
    telemetry_project(project)
    decide(project, "echo once")

    def crash(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(batches.Forwarding, "advance", crash)
    with pytest.raises(KeyboardInterrupt):
        send(project, receiver)
    monkeypatch.undo()
    assert send(project, receiver).sent == {"traces": 1}
    first, second = receiver.spans()
    assert (first["traceId"], first["spanId"]) == (second["traceId"], second["spanId"])


def test_a_failure_that_may_pass_is_tried_again_honouring_retry_after(project, receiver):
    telemetry_project(project)
    decide(project, "ls")
    receiver.script = [(503, {"Retry-After": "0"}, b""), (429, {}, b"")]
    outcome = send(project, receiver, retries=2)
    assert outcome.sent == {"traces": 1}
    assert [status for _path, status in receiver.seen] == [503, 429, 200]


def test_an_answer_that_will_not_change_stops_the_forwarder_and_keeps_the_records(project, receiver):
    telemetry_project(project)
    decide(project, "ls")
    receiver.script = [(400, {}, b'{"message":"bad experiment id"}')]
    outcome = send(project, receiver, retries=3)
    assert [status for _path, status in receiver.seen] == [400]  # not tried again
    assert outcome.waiting == 1
    assert outcome.error.startswith(f"traces to {receiver.base_url}/v1/traces: HTTP 400 Bad Request")
    assert "bad experiment id" in outcome.error
    cursor = batches.read_cursor(folder(project))
    assert "HTTP 400" in cursor["last_error"]["message"]
    assert send(project, receiver).sent == {"traces": 1}  # the next try, once the receiver takes it


def test_a_redirect_is_not_followed_so_credentials_stay_where_they_were_sent(project, receiver):
    elsewhere = OtlpStandIn().start()
    try:
        telemetry_project(project)
        decide(project, "ls")
        receiver.script = [(307, {"Location": elsewhere.base_url + "/v1/traces"}, b"")]
        outcome = send(project, receiver, OTEL_EXPORTER_OTLP_HEADERS="authorization=Bearer s3cr3t")
        assert "redirects to" in outcome.error and outcome.waiting == 1
        assert elsewhere.seen == []
    finally:
        elsewhere.stop()


def test_records_the_receiver_refuses_in_a_partial_success_are_counted_not_resent(project, receiver):
    telemetry_project(project)
    decide(project, "echo 1", "echo 2")
    answer = json.dumps({"partialSuccess": {"rejectedSpans": "1", "errorMessage": "span too old"}}).encode()
    receiver.script = [(200, {}, answer)]
    outcome = send(project, receiver)
    assert outcome.sent == {"traces": 1} and outcome.waiting == 0
    assert outcome.problems == ["the receiver refused 1 traces records: span too old"]
    assert batches.read_cursor(folder(project))["rejected"] == 1


def test_logs_and_traces_each_move_on_their_own(project, receiver):
    """A logs pipeline that refuses does not make the traces go twice."""
    telemetry_project(project, 'signals = ["traces", "logs"]\n')
    decide(project, "git push --force")
    receiver.script = [(200, {}, b"{}"), (404, {}, b"")]  # traces taken, logs not
    first = send(project, receiver)
    assert first.sent == {"traces": 1} and "HTTP 404" in first.error and first.waiting == 1
    second = send(project, receiver)
    assert second.sent == {"logs": 1} and second.waiting == 0
    assert len(receiver.spans()) == 1
    (log,) = receiver.log_records()
    assert (log["severityText"], log["severityNumber"]) == ("WARN", 13)
    assert log["body"]["stringValue"] == "block Bash by no-force-push: Operation blocked: Force-pushing is not allowed."
    assert log["traceId"] == receiver.spans()[0]["traceId"]


def test_gzip_when_asked(project, receiver):
    telemetry_project(project)
    decide(project, "ls")
    assert send(project, receiver, OTEL_EXPORTER_OTLP_COMPRESSION="gzip").sent == {"traces": 1}
    assert receiver.accepted[0][1]["Content-Encoding"] == "gzip"


def write_batch(project, name: str, commands) -> None:
    lines = [
        {"trace": f"{i:032x}", "span": f"{i:016x}", "event": "PreToolUse", "input": {"command": c}} for i, c in commands
    ]
    with open(os.path.join(folder(project), name), "w") as f:
        f.write("".join(json.dumps(line) + "\n" for line in lines))


def test_the_spool_is_bounded_the_oldest_dropped_and_the_count_sent(project, receiver):
    telemetry_project(project, "max_spool_bytes = 65536\n")
    big = "x" * 700
    write_batch(project, "batch.00000000000000000001.jsonl", [(i, f"old {i} {big}") for i in range(1, 101)])
    write_batch(project, "batch.00000000000000000002.jsonl", [(i, f"new {i} {big}") for i in range(101, 121)])
    with open(os.path.join(folder(project), spool.OVERFLOW), "wb") as f:
        f.write(b"xxx")  # three records the runs could not spool
    outcome = send(project, receiver)
    assert outcome.dropped == 103
    spans = receiver.spans()
    assert [attributes(s).get("cupcake.tool.input.command", "")[:7] for s in spans[:2]] == ["new 101", "new 102"]
    dropped = [s for s in spans if s["name"] == "cupcake dropped"]
    assert [attributes(s)["cupcake.dropped"] for s in dropped] == ["103"]
    assert len(spans) == 21
    cursor = batches.read_cursor(folder(project))
    assert (cursor["dropped"], cursor["dropped_reported"]) == (103, 103)
    assert send(project, receiver).sent == {}  # the count is reported once


def test_a_torn_or_foreign_line_is_counted_and_skipped(project, receiver):
    telemetry_project(project)
    path = os.path.join(folder(project), "batch.00000000000000000001.jsonl")
    with open(path, "w") as f:
        f.write('{"trace": "%032x", "span": "%016x", "event": "Stop"}\n[1, 2]\nnot json\n{"trace": "torn' % (1, 1))
    outcome = send(project, receiver)
    assert outcome.sent == {"traces": 1} and outcome.waiting == 0
    assert batches.read_cursor(folder(project))["bad"] == 3


HOLD_LOCK = "import os, sys, time; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); os.lockf(fd, os.F_LOCK, 0); print('held', flush=True); time.sleep(60)"


def test_one_forwarder_at_a_time(project, receiver):
    telemetry_project(project)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, os.path.join(folder(project), batches.LOCK)], stdout=subprocess.PIPE
    )
    try:
        assert holder.stdout.readline() == b"held\n"
        with pytest.raises(batches.Busy):
            send(project, receiver)
    finally:
        holder.kill()
        holder.wait()
        holder.stdout.close()
    assert send(project, receiver).error is None


def test_with_telemetry_off_nothing_is_sent_and_the_records_wait(project, receiver):
    telemetry_project(project)
    decide(project, "ls")
    project.write_policy(POLICY.replace("enabled = true", "enabled = false"))
    outcome = send(project, receiver)
    assert outcome.sent == {} and outcome.waiting == 1
    assert "telemetry is off" in " ".join(outcome.problems)
    assert receiver.seen == []
