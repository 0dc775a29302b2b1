"""Bounds a hostile agent cannot lift: a glob import over many folders, the run's deadline, closed mode out
of time, memory for a huge command. Through the installed executable, a fresh process each time."""

from __future__ import annotations

import json
import os
import subprocess
import time

from tests.conftest import cupcake_executable

BLOCK_RM = (
    '[[policy]]\nname = "no rm"\nconditions = [{ type = "command_regex", value = "rm -rf" }]\n'
    'action = { type = "block_with_feedback", feedback_message = "No rm -rf." }\n'
)


def _project(tmp_path, text):
    root = (tmp_path / "p").resolve()
    root.mkdir()
    (tmp_path / "h").mkdir()
    (root / "cupcake.toml").write_text(text)
    return root


def _send(root, command, timeout=60):
    payload = {"session_id": "s1", "cwd": str(root), "hook_event_name": "PreToolUse", "tool_name": "Bash"}
    payload["tool_input"] = {"command": command}
    env = {"HOME": str(root.parent / "h"), "PATH": os.environ.get("PATH", os.defpath), "CLAUDE_PROJECT_DIR": str(root)}
    started = time.monotonic()
    done = subprocess.run(
        [cupcake_executable(), "run", "--event", "PreToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=root,
        env=env,
        timeout=timeout,
    )
    assert b"Traceback" not in done.stderr, done.stderr
    return (json.loads(done.stdout) if done.stdout.strip() else {}), time.monotonic() - started


def test_a_glob_import_over_600_folders_is_refused_with_a_clear_error(tmp_path):
    root = _project(tmp_path, 'imports = ["policies/**/*.toml"]\n\n' + BLOCK_RM)
    for n in range(1, 601):
        (root / "policies" / f"d{n}").mkdir(parents=True)
    answer, seconds = _send(root, "rm -rf build")
    assert seconds < 10
    text = json.dumps(answer)
    assert "scans more than 500 directories" in text, answer


def test_a_run_answers_before_the_hook_timeout_and_closed_mode_blocks_when_out_of_time(tmp_path):
    root = _project(
        tmp_path,
        '[settings]\nfail_mode = "closed"\nhook_timeout_seconds = 7\n\n'
        '[[policy]]\nname = "slow check"\nmatcher = "Bash"\n'
        'action = { type = "run_command", command = "sleep 30", on_failure = "ignore" }\n\n'
        '[[policy]]\nname = "slower check"\nmatcher = "Bash"\n'
        'action = { type = "run_command", command = "sleep 30", on_failure = "feedback" }\n',
    )
    answer, seconds = _send(root, "ls")
    assert seconds < 7 - 5 + 1.5, seconds  # the deadline is hook_timeout_seconds - 5 s
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", answer


def _measured(root, command, timeout):
    """(answer, seconds, max RSS in MiB) of one run, measured in a wrapper process of its own."""
    code = (
        "import json, resource, subprocess, sys, time\n"
        "t = time.monotonic()\n"
        "done = subprocess.run(sys.argv[1:], input=sys.stdin.buffer.read(), capture_output=True)\n"
        "print(json.dumps([done.stdout.decode(), time.monotonic() - t,"
        " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]))\n"
    )
    payload = {"session_id": "s1", "cwd": str(root), "hook_event_name": "PreToolUse", "tool_name": "Bash"}
    payload["tool_input"] = {"command": command}
    env = {"HOME": str(root.parent / "h"), "PATH": os.environ.get("PATH", os.defpath), "CLAUDE_PROJECT_DIR": str(root)}
    import sys

    done = subprocess.run(
        [sys.executable, "-c", code, cupcake_executable(), "run", "--event", "PreToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=root,
        env=env,
        timeout=timeout,
    )
    stdout, seconds, mib = json.loads(done.stdout)
    return (json.loads(stdout) if stdout.strip() else {}), seconds, mib


def test_a_225_kb_command_of_globs_is_answered_within_the_deadline(tmp_path):
    root = _project(tmp_path, '[settings]\nhook_timeout_seconds = 10\nfail_mode = "closed"\n\n' + BLOCK_RM)
    command = " ".join(["/*/*/*/*"] * (225 * 1024 // 9))
    answer, seconds, mib = _measured(root, "rm -rf build " + command, timeout=60)
    print(f"225 KB command: {seconds:.2f} s, max RSS {mib:.1f} MiB")
    assert seconds < 10 - 5 + 1.5, seconds
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", answer


def test_memory_stays_under_100_mb_for_a_225_kb_command_of_globs(tmp_path):
    """Measured up to the deadline of a 10 s hook timeout (the run is stopped at 5 s)."""
    root = _project(tmp_path, "[settings]\nhook_timeout_seconds = 10\n\n" + BLOCK_RM)
    command = " ".join(["/*/*/*/*"] * (225 * 1024 // 9))
    answer, seconds, mib = _measured(root, "rm -rf build " + command, timeout=60)
    print(f"225 KB command: {seconds:.2f} s, max RSS {mib:.1f} MiB")
    assert mib < 100, mib
