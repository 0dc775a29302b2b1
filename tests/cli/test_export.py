"""`cupcake export` through the installed executable: it sends what waits, says how much, exits 1 while
anything still waits; and a policy file cannot carry a credential for it."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import cupcake_executable
from tests.telemetry.standin import OtlpStandIn, attributes

POLICY = (
    '[[policy]]\nname = "no-force-push"\nmatcher = "Bash"\n'
    'conditions = [{ type = "command_regex", value = "--force" }]\n'
    'action = { type = "block_with_feedback", feedback_message = "Force-pushing is not allowed." }\n'
    "\n[telemetry]\nenabled = true\ninterval_seconds = 3600\n"
)


def cupcake(project, *args, env=None):
    environment = {**project.env(), **(env or {})}
    return subprocess.run(
        [cupcake_executable(), *args], cwd=project.root, env=environment, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def spooled(project):
    """Two decisions in the spool, and no forwarder of the runs' own in the way."""
    project.write_policy(POLICY)
    folder = project.root / ".cupcake" / "telemetry"
    folder.mkdir(parents=True)
    (folder / "forwarder.started").write_text("1")
    for command in ("git push --force", "ls"):
        project.send_process(project.tool_call("Bash", {"command": command}))
    return project


def test_export_sends_what_waits_and_says_how_much(spooled):
    with OtlpStandIn() as receiver:
        done = cupcake(spooled, "export", env={"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.base_url})
        url = f"{receiver.base_url}/v1/traces"
        assert (done.returncode, done.stderr) == (0, "")
        assert done.stdout == (
            f"{spooled.root}:\n"
            f"  sent 2 decisions as spans: traces → {url} (from OTEL_EXPORTER_OTLP_ENDPOINT)\n"
            "  nothing waits\n"
        )
        assert [attributes(s)["cupcake.decision"] for s in receiver.spans()] == ["block", "allow"]
        again = cupcake(spooled, "export", env={"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.base_url})
        assert again.returncode == 0 and "sent nothing new" in again.stdout and len(receiver.spans()) == 2


def test_export_with_the_receiver_down_keeps_everything_and_exits_1(spooled):
    receiver = OtlpStandIn().start()
    url = receiver.base_url
    receiver.stop()
    done = cupcake(spooled, "export", "--retries", "0", env={"OTEL_EXPORTER_OTLP_ENDPOINT": url})
    assert done.returncode == 1
    assert "  2 decisions still wait (kept for the next try)\n" in done.stdout
    assert f"  stopped: traces to {url}/v1/traces: cannot reach the endpoint" in done.stdout


def test_export_without_an_endpoint_says_where_to_name_one(spooled):
    done = cupcake(spooled, "export", "--json")
    assert done.returncode == 1
    (outcome,) = json.loads(done.stdout)
    assert outcome["waiting"] == 2 and outcome["sent"] == {}
    assert outcome["problems"] == [
        "no endpoint for traces: set [telemetry] endpoint, or OTEL_EXPORTER_OTLP_ENDPOINT where the forwarder runs"
    ]


def test_export_of_a_project_without_telemetry_has_nothing_to_send(project):
    project.write_policy('[[policy]]\nname = "p"\naction = { type = "provide_feedback", message = "hi" }\n')
    done = cupcake(project, "export")
    assert done.returncode == 0 and "nothing waits" in done.stdout


def test_validate_refuses_a_credential_in_telemetry(project):
    project.write_policy(POLICY + 'headers = { "Authorization" = "Bearer abc" }\n')
    done = cupcake(project, "validate")
    assert done.returncode == 1
    assert done.stdout == (
        "cupcake.toml:10: error: `telemetry.headers`: `Authorization` names a credential. Credentials never go in "
        "a policy file (the agent can read it, and a repository is shared): set them in OTEL_EXPORTER_OTLP_HEADERS "
        "where the forwarder runs\n1 error, 0 warnings\n"
    )


def telemetry_findings(project, env=None) -> list[tuple[str, str]]:
    done = cupcake(project, "doctor", "--json", env=env)
    return [(f["status"], f["message"]) for f in json.loads(done.stdout)["findings"] if f["check"] == "telemetry"]


def test_doctor_says_where_the_decisions_go_what_waits_and_what_failed(spooled):
    receiver = OtlpStandIn().start()
    url = receiver.base_url
    receiver.stop()
    cupcake(spooled, "export", "--retries", "0", env={"OTEL_EXPORTER_OTLP_ENDPOINT": url})
    (status, summary), (failed_status, failed) = telemetry_findings(spooled, {"OTEL_EXPORTER_OTLP_ENDPOINT": url})
    assert status == "ok"
    assert summary.startswith(
        f"telemetry on: spans → {url}/v1/traces (from OTEL_EXPORTER_OTLP_ENDPOINT); 2 waiting; 0 sent, the last at never"
    )
    assert failed_status == "warning" and "traces: cannot reach the endpoint" in failed


def test_doctor_counts_what_the_bound_dropped(spooled):
    folder = spooled.root / ".cupcake" / "telemetry"
    (folder / "cursor.json").write_text('{"dropped": 7, "last_drop": 0}')
    findings = telemetry_findings(spooled, {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"})
    assert (
        "warning",
        "7 decisions were dropped unsent (the last at 1970-01-01 00:00:00Z): the spool was full "
        "([telemetry] max_spool_bytes) while the receiver could not be reached",
    ) in findings


def test_doctor_warns_that_claude_code_hides_the_variables_from_its_hooks(spooled):
    (spooled.root / ".claude").mkdir()
    (spooled.root / ".claude" / "settings.json").write_text(
        '{"hooks": {"PreToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": "cupcake run --event PreToolUse"}]}]}}'
    )
    findings = telemetry_findings(spooled, {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9"})
    assert any("Claude Code removes the OTEL_* variables from the hooks it runs" in m for _s, m in findings)
    spooled.write_policy(POLICY + 'endpoint = "http://127.0.0.1:9"\n')
    findings = telemetry_findings(spooled)
    assert not any("Claude Code removes" in m for _s, m in findings)
