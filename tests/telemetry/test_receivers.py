"""Decisions from real `cupcake run` calls reach real OpenTelemetry receivers exactly once, with their
attributes, although the receiver was down for some of them: rotel (a collector; what it printed is the
proof) and MLflow's tracking server (a store; its query API is the proof)."""

from __future__ import annotations

import os
import subprocess
import time
from collections import Counter

import pytest

from tests.conftest import cupcake_executable

from .receivers import MLflow, ReceiverUnavailable, Rotel, ensure_receivers, rotel_log_records, rotel_spans

IN_CI = os.environ.get("CI", "").lower() == "true"
POLICY = """[[policy]]
name = "no-force-push"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "git push.*--force" }]
action = { type = "block_with_feedback", feedback_message = "Force-pushing rewrites shared history." }

[telemetry]
enabled = true
interval_seconds = 1
"""
BEFORE = ["echo one", "git push --force origin main", "ls -la"]
WHILE_DOWN = ["echo four", "git push origin main --force", "echo six"]
AFTER = ["echo seven"]


@pytest.fixture(scope="session")
def receivers_venv():
    try:
        return ensure_receivers()
    except ReceiverUnavailable as exc:
        if IN_CI:
            pytest.fail(f"CI=true: the OTLP receivers are unavailable: {exc}", pytrace=False)
        pytest.skip(f"the OTLP receivers are unavailable: {exc}")


def decide(project, commands) -> None:
    for command in commands:
        answer = project.send_process(project.tool_call("Bash", {"command": command}))
        assert answer.code == 0
        assert ("force" in command) == (answer.specific.get("permissionDecision") == "deny"), answer


def wait_for(check, timeout: float = 60.0, what: str = "the receiver"):
    give_up = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > give_up:
            return found
        time.sleep(0.5)


def export(project, *args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [cupcake_executable(), "export", *args],
        cwd=project.root,
        env=project.env(),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_rotel_prints_every_decision_once_though_it_was_down_for_some(project, receivers_venv, tmp_path):
    workdir = tmp_path / "rotel"
    workdir.mkdir()
    rotel = Rotel(receivers_venv, workdir)
    project.write_policy(POLICY + f'endpoint = "{rotel.url}"\nsignals = ["traces", "logs"]\n')
    with rotel:
        decide(project, BEFORE)  # the first run starts the forwarder; it sends, and stays while they come
        assert wait_for(lambda: len(rotel_spans(rotel.printed())) >= 3), rotel.printed()[-3000:]
        rotel.stop()
        decide(project, WHILE_DOWN)
        time.sleep(1.5)  # past the interval: the next run starts a forwarder, which finds the receiver down
        decide(project, AFTER)
        rotel.start()  # the same port
        done = export(project)  # whatever the runs' forwarders have not sent yet
        assert done.returncode == 0, done.stdout + done.stderr
        everything = BEFORE + WHILE_DOWN + AFTER
        assert wait_for(lambda: len(rotel_spans(rotel.printed())) >= len(everything))
        time.sleep(2)  # anything sent twice would show by now
        printed = rotel.printed()
    spans = rotel_spans(printed)
    commands = Counter(s["attributes"].get("cupcake.tool.input.command") for s in spans)
    assert commands == Counter(everything), printed[-4000:]
    assert len({s["id"] for s in spans}) == len(everything)
    assert rotel_log_records(printed) == len(everything)
    blocked = [s["attributes"] for s in spans if s["attributes"]["cupcake.decision"] == "block"]
    assert len(blocked) == 2
    for attributes in blocked:
        assert attributes["cupcake.decided_by"] == "no-force-push"
        assert attributes["cupcake.reason"] == "Operation blocked: Force-pushing rewrites shared history."
        assert attributes["cupcake.event"] == "PreToolUse"
        assert attributes["gen_ai.tool.name"] == "Bash"
        assert attributes["gen_ai.agent.name"] == "claude"
        assert attributes["gen_ai.conversation.id"] == project.session_id
        assert attributes["cupcake.project"] == project.root.name
        assert attributes["service.name"] == "cupcake" and attributes["host.name"] == os.uname().nodename
    assert all(s["events"] == 1 for s in spans if s["attributes"]["cupcake.decision"] == "block")


def test_mlflow_stores_every_decision_once_though_it_was_down_for_some(project, receivers_venv, tmp_path):
    workdir = tmp_path / "mlflow"
    workdir.mkdir()
    mlflow = MLflow(receivers_venv, workdir)
    project.write_policy(
        POLICY + f'traces_endpoint = "{mlflow.url}/v1/traces"\nheaders = {{ "x-mlflow-experiment-id" = "0" }}\n'
    )
    with mlflow:
        decide(project, BEFORE)
        assert wait_for(lambda: mlflow.trace_count() >= 3, 90)
        mlflow.stop()
        decide(project, WHILE_DOWN)
        down = export(project, "--retries", "0")
        assert down.returncode == 1 and "3 decisions still wait" in down.stdout, down.stdout
        decide(project, AFTER)
        mlflow.start()
        done = export(project)
        assert done.returncode == 0, done.stdout + done.stderr
        everything = BEFORE + WHILE_DOWN + AFTER
        assert wait_for(lambda: mlflow.trace_count() >= len(everything), 90)
        time.sleep(2)
        spans = mlflow.spans()
    commands = Counter(s["attributes"].get("cupcake.tool.input.command") for s in spans)
    assert commands == Counter(everything)
    assert len({(s["trace"], s["span"]) for s in spans}) == len(everything)
    blocked = [s["attributes"] for s in spans if s["attributes"].get("cupcake.decision") == "block"]
    assert [a["cupcake.decided_by"] for a in blocked] == ["no-force-push", "no-force-push"]
    assert {a["cupcake.reason"] for a in blocked} == {"Operation blocked: Force-pushing rewrites shared history."}
    assert all(s["name"] == "cupcake PreToolUse" for s in spans)
    assert {s["attributes"]["gen_ai.conversation.id"] for s in spans} == {project.session_id}
