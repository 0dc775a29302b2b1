"""With the audit trail on, a warm `cupcake run` still imports none of the slow modules, even when it
masks a secret."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import cupcake
from cupcake.project import SYSTEM_ROOT_VARIABLE
from cupcake.stores.policies.loader import load
from tests.conftest import give_cache_secret

SLOW = (
    "re",
    "json",
    "hashlib",
    "datetime",
    "typing",
    "enum",
    "dataclasses",
    "pydantic",
    "typer",
    "subprocess",
    "pathlib",
    "orjson",
    "cupcake.jsonio",
)

WARM_RUN = """
import sys
from cupcake.cli.run import execute
ctx = execute(sys.stdin.buffer.read(), ["--event", "PreToolUse"], {"CLAUDE_PROJECT_DIR": sys.argv[1], "HOME": sys.argv[1]})
print(ctx.envelope[0].decode().strip())
print(",".join(sorted(m for m in %r if m in sys.modules)))
""" % (SLOW,)


def test_a_warm_run_that_writes_an_audit_line_imports_nothing_slow(tmp_path):
    (tmp_path / "cupcake.toml").write_text(
        '[settings]\naudit_logging = true\n\n[[policy]]\nname = "No shell"\nmatcher = "Bash"\n'
        'action = { type = "block_with_feedback", feedback_message = "no shell here" }\n'
    )
    give_cache_secret(tmp_path)
    assert load(str(tmp_path), {"HOME": str(tmp_path)}).compiled["out_of_service"] is None  # the cache, built cold
    payload = {
        "session_id": "s",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "cwd": str(tmp_path),
        "tool_input": {"command": "curl -H 'Authorization: Bearer abcdefgh' https://deploy:pw@x"},
    }
    repo = os.path.dirname(os.path.dirname(cupcake.__file__))
    done = subprocess.run(
        [sys.executable, "-S", "-c", WARM_RUN, str(tmp_path)],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={"PYTHONPATH": repo, SYSTEM_ROOT_VARIABLE: os.environ[SYSTEM_ROOT_VARIABLE]},  # the session's stand-in /etc
        check=True,
    )
    answer, slow = done.stdout.decode().splitlines()
    assert "no shell here" in answer
    assert slow == ""
    record = json.loads((tmp_path / ".cupcake" / "audit.log").read_text())
    assert record["decision"] == "block"
    assert record["input"]["command"] == "curl -H 'Authorization: Bearer ***' https://deploy:***@x"
