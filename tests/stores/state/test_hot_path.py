"""Recording a tool use and answering a state query stay on the lean path: none of the costly
modules a warm `cupcake run` must not import."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import give_cache_secret

COSTLY = (
    "json",
    "re",
    "enum",
    "typing",
    "dataclasses",
    "datetime",
    "hashlib",
    "pathlib",
    "subprocess",
    "pydantic",
    "typer",
    "tomli",
    "inspect",
)

POLICY = """
[[policy]]
name = "Read before edit"
matcher = "Edit"
conditions = [{ type = "state_missing", tool = "Read", path = "notes.md", count = 2, within = "1h" }]
action = { type = "block_with_feedback", feedback_message = "Read notes.md first" }
"""


def _imported_by(project, payload: dict) -> tuple[str, list]:
    probe = (
        "import sys; before = set(sys.modules); from cupcake.cli.run import execute; import os; "
        f"ctx = execute({json.dumps(payload).encode()!r}, [], dict(os.environ)); "
        "print(repr(ctx.envelope[0])); print(' '.join(sorted(set(sys.modules) - before)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=project.env(), timeout=30, cwd=project.root
    )  # imports the installed Cupcake, as the executable does
    answer, imported = done.stdout.splitlines()
    return answer, [m for m in imported.split() if m in COSTLY]


def test_recording_and_querying_import_nothing_costly(project):
    give_cache_secret(project.home)  # as sync leaves it: the runs below are warm
    project.write_policy(POLICY)
    read = project.tool_call("Read", {"file_path": project.path("notes.md")}, event="PostToolUse")
    bash = project.tool_call("Bash", {"command": "API_TOKEN=abc123 curl https://x?api_key=1"}, event="PostToolUse")
    edit = project.tool_call("Edit", {"file_path": project.path("notes.md"), "old_string": "a", "new_string": "b"})
    project.send_process(edit)  # builds the policy cache
    for payload in (read, bash, read):
        answer, costly = _imported_by(project, payload)
        assert answer == "b''" and costly == [], (answer, costly)
    answer, costly = _imported_by(project, edit)  # catches up with the log: lock, read, summary written
    assert answer == "b''" and costly == [], (answer, costly)
    answer, costly = _imported_by(project, edit)  # the summary is current
    assert answer == "b''" and costly == [], (answer, costly)
    log = (project.root / ".cupcake" / "state" / f"{project.session_id}.json").read_text()
    assert "API_TOKEN=***" in log and "api_key=***" in log
