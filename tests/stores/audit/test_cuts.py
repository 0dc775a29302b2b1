"""Cutting the audit trail anywhere, or deleting a rotated file, fails `cupcake audit verify`; holding the
audit lock cannot suppress a record. Through the installed executable, a fresh process each time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time

import pytest

from tests.conftest import cupcake_executable

POLICY = (
    "[settings]\naudit_logging = true\naudit_allows = true\n{extra}\n"
    '[[policy]]\nname = "no rm"\nmatcher = "Bash"\nconditions = [{{ type = "command_regex", value = "rm -rf" }}]\n'
    'action = {{ type = "block_with_feedback", feedback_message = "No rm -rf." }}\n'
)


@pytest.fixture
def project(tmp_path):
    root = (tmp_path / "p").resolve()
    root.mkdir()
    (tmp_path / "h").mkdir()
    return root


def _env(root):
    return {"HOME": str(root.parent / "h"), "PATH": os.environ.get("PATH", os.defpath), "CLAUDE_PROJECT_DIR": str(root)}


def _run(root, command: str):
    payload = {
        "session_id": "s1",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    started = time.monotonic()
    done = subprocess.run(
        [cupcake_executable(), "run", "--event", "PreToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=root,
        env=_env(root),
        timeout=60,
    )
    return done, time.monotonic() - started


def _verify(root):
    return subprocess.run(
        [cupcake_executable(), "audit", "verify"], capture_output=True, text=True, cwd=root, env=_env(root), timeout=60
    )


def _trail(root, runs: int, extra: str = ""):
    (root / "cupcake.toml").write_text(POLICY.format(extra=extra))
    for n in range(runs):
        _run(root, f"echo {n}")
    assert _verify(root).returncode == 0, _verify(root).stdout


def _cut(path, keep):
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(keep(lines)))


@pytest.mark.parametrize(
    ("keep", "says"),
    [
        (lambda ls: ls[2:], "2 lines were cut from the head"),
        (lambda ls: ls[:-2], "2 lines were cut from the tail"),
        (lambda ls: ls[:2] + ls[4:], "2 lines are missing"),
        (lambda ls: ls[1:], "1 line was cut from the head"),
        (lambda ls: ls[:-1], "1 line was cut from the tail"),
    ],
)
def test_cutting_the_head_the_tail_or_the_middle_fails_verify(project, keep, says):
    _trail(project, 6)
    _cut(project / ".cupcake" / "audit.log", keep)
    done = _verify(project)
    assert done.returncode == 1, done.stdout
    assert "Audit trail broken" in done.stdout and says in done.stdout, done.stdout


def test_a_cut_tail_stays_evident_after_later_runs(project):
    _trail(project, 5)
    _cut(project / ".cupcake" / "audit.log", lambda ls: ls[:-2])
    _run(project, "echo later")
    _run(project, "echo later again")
    done = _verify(project)
    assert done.returncode == 1 and "cut from the tail" in done.stdout, done.stdout


def test_deleting_the_anchor_fails_verify(project):
    _trail(project, 3)
    (project / ".cupcake" / "audit.anchor").unlink()
    assert "audit.anchor is missing" in _verify(project).stdout
    _run(project, "echo after")  # a later run does not hide it
    done = _verify(project)
    assert done.returncode == 1 and "the anchor was missing when seq 4 was written" in done.stdout, done.stdout


def test_deleting_or_cutting_a_rotated_file_fails_verify(project):
    _trail(project, 14, "audit_max_bytes = 2048\naudit_keep = 5\n")
    work = project / ".cupcake"
    rotated = sorted(work.glob("audit.log.*"))
    assert len(rotated) >= 2
    for file in rotated:
        saved = file.read_bytes()
        file.unlink()
        done = _verify(project)
        assert done.returncode == 1, (file.name, done.stdout)
        if file == rotated[-1]:  # the oldest: the chain alone would not see it
            assert f"{file.name} is missing: the anchor says it held seq 1 to" in done.stdout, done.stdout
        file.write_bytes(saved)
        assert _verify(project).returncode == 0
    _cut(work / "audit.log.1", lambda ls: ls[:-1])
    done = _verify(project)
    assert done.returncode == 1, done.stdout


def test_the_oldest_rotation_falling_off_is_not_a_cut(project):
    _trail(project, 14, "audit_max_bytes = 1024\naudit_keep = 2\n")
    done = _verify(project)
    assert done.returncode == 0 and "rotated away" in done.stdout, done.stdout
    oldest = project / ".cupcake" / "audit.log.2"
    _cut(oldest, lambda ls: ls[1:])  # …but cutting the oldest file's head is
    assert _verify(project).returncode == 1


@pytest.mark.skipif(not shutil.which("flock"), reason="needs util-linux flock")
def test_holding_the_audit_lock_cannot_suppress_a_record_nor_delay_the_answer(project):
    _trail(project, 2)
    work = project / ".cupcake"
    holder = subprocess.Popen(["flock", str(work / "audit.lock"), "sleep", "300"], start_new_session=True)
    try:
        time.sleep(0.3)
        done, seconds = _run(project, "rm -rf data")
        answer = json.loads(done.stdout)
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
        assert seconds < 5, seconds
        assert "the record was kept in .cupcake/audit.pending." in answer.get("systemMessage", ""), answer
        assert list(work.glob("audit.pending.*"))
    finally:
        os.killpg(holder.pid, 9)
        holder.wait()
    done = _verify(project)  # verify adds the kept record to the chain first
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 lines" in done.stdout
    assert "rm -rf data" in (work / "audit.log").read_text()
    assert not list(work.glob("audit.pending.*"))
