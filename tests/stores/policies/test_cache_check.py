"""validate and doctor compare the cache with the source by value: a cache the runs built is trusted, a
forged one is not (through the installed executable, in fresh processes)."""

from __future__ import annotations

import json
import os
import subprocess

from tests.conftest import cupcake_executable

POLICY = """
[[policy]]
name = "No force push"
matcher = "Bash"
conditions = [{ type = "command_regex", value = "push.*--force" }]
action = { type = "block_with_feedback", feedback_message = "Push without --force" }
"""


def _run(args, project, stdin=b""):
    env = {**os.environ, "HOME": str(project / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    return subprocess.run([cupcake_executable(), *args], cwd=project, env=env, input=stdin, capture_output=True,
                          timeout=60)  # fmt: skip


def test_a_cache_the_runs_built_is_trusted_by_validate_and_doctor(tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "cupcake.toml").write_text(POLICY)
    event = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(tmp_path), "tool_name": "Bash",
             "tool_input": {"command": "git push --force"}}  # fmt: skip
    for _ in range(2):  # a run builds the cache, the next one reads it
        assert b"deny" in _run(["run", "--event", "PreToolUse"], tmp_path, json.dumps(event).encode()).stdout
    for _ in range(2):
        done = _run(["validate"], tmp_path)
        assert done.returncode == 0 and b"NOT trusted" not in done.stdout + done.stderr, done
    assert b"NOT trusted" not in _run(["doctor"], tmp_path).stdout


def test_a_cache_that_disagrees_with_the_source_is_reported(tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "cupcake.toml").write_text(POLICY)
    _run(["validate"], tmp_path)  # the per-user secret exists from here on
    event = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(tmp_path), "tool_name": "Bash",
             "tool_input": {"command": "ls"}}  # fmt: skip
    _run(["run", "--event", "PreToolUse"], tmp_path, json.dumps(event).encode())
    from tests import cache_forgery

    path = tmp_path / ".cupcake" / "policy.cache"
    key, compiled = cache_forgery.contents(path.read_bytes())
    compiled["policies"] = []  # every policy switched off, sealed with the user's own secret
    secret = (tmp_path / "home" / ".cache" / "cupcake" / "cache-secret").read_bytes()
    path.write_bytes(cache_forgery.sealed(secret, key, compiled))
    done = _run(["validate"], tmp_path)
    assert done.returncode == 1 and b"NOT trusted" in done.stdout + done.stderr, done
