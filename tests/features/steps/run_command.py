"""The run_command action: stand-in test suites and scripts, what ran and with which arguments."""

from __future__ import annotations

import json

from pytest_bdd import given, parsers, then, when

from tests.features.steps.helpers import _send

RUNNER_STREAMS = {"npm": "stdout", "cargo": "stderr"}  # where each stand-in test runner prints


@given(parsers.parse("the test suite fails with:"))
def suite_fails(project, docstring):
    """Stand-ins for `npm` and `cargo` on the PATH that print this and exit 1."""
    for runner, stream in RUNNER_STREAMS.items():
        script = project.bin / runner
        script.write_text(f"#!/usr/bin/env python3\nimport sys\nprint({docstring!r}, file=sys.{stream})\nsys.exit(1)\n")
        script.chmod(0o755)


@given("the test suite passes")
def suite_passes(project):
    """Stand-ins for `npm` and `cargo` on the PATH that exit 0."""
    for runner in RUNNER_STREAMS:
        script = project.bin / runner
        script.write_text("#!/bin/sh\nexit 0\n")
        script.chmod(0o755)


@given(parsers.parse('the project script "{name}" records its arguments'))
def recording_script(project, name):
    """A script in the project that records every call's arguments (in .calls.jsonl)."""
    script = project.root / name
    script.write_text(
        "#!/usr/bin/env python3\nimport json, os, sys\n"
        "with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '.calls.jsonl'), 'a') as f:\n"
        "    f.write(json.dumps(sys.argv[1:]) + '\\n')\n"
    )
    script.chmod(0o755)


def _calls(project) -> list:
    path = project.root / ".calls.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@when(parsers.parse('Claude Code reports that the agent wrote "{path}"'))
def reports_write(project, run, path):
    """Claude Code reports (PostToolUse) that the agent wrote the file."""
    target = str(project.root / path)
    tool_input = {"file_path": target, "content": "fn main() {}\n"}
    payload = project.tool_call("Write", tool_input, event="PostToolUse")
    payload["tool_response"] = {"type": "create", "filePath": target, "content": "fn main() {}\n"}
    _send(project, run, payload)


@when(parsers.parse('Claude Code reports that the agent ran "{command}"'))
def reports_bash(project, run, command):
    """Claude Code reports (PostToolUse) that the agent ran the command."""
    payload = project.tool_call("Bash", {"command": command, "description": "run"}, event="PostToolUse")
    payload["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}
    _send(project, run, payload)


@then(parsers.parse('"{name}" received exactly the arguments:'))
def received_arguments(project, name, docstring):
    """The last call of the script got exactly these arguments (a JSON list)."""
    calls = _calls(project)
    assert calls, f"{name} never ran"
    assert calls[-1] == json.loads(docstring)


@then(parsers.parse('"{name}" ran {count:d} times'))
def ran_times(project, name, count):
    """The script was called that many times."""
    assert len(_calls(project)) == count
