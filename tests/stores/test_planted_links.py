"""Cupcake never writes through a link the agent planted: a symlinked `.cupcake`, or a symlink at a
temporary file's name. Through the installed executable, a fresh process each time."""

from __future__ import annotations

import json
import os

from tests.conftest import cupcake_executable, give_cache_secret

POLICY = (
    "[settings]\naudit_logging = true\naudit_allows = true\n\n"
    '[[policy]]\nname = "no rm"\nmatcher = "Bash"\nconditions = [{ type = "command_regex", value = "rm -rf" }]\n'
    'action = { type = "block_with_feedback", feedback_message = "No rm -rf." }\n'
)


def _run(root, command):
    import subprocess

    payload = {
        "session_id": "s1",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
    }
    env = {"HOME": str(root.parent / "h"), "PATH": os.environ.get("PATH", os.defpath), "CLAUDE_PROJECT_DIR": str(root)}
    done = subprocess.run(
        [cupcake_executable(), "run", "--event", "PreToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=root,
        env=env,
        timeout=60,
    )
    assert b"Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def _project(tmp_path):
    root = (tmp_path / "p").resolve()
    root.mkdir()
    (tmp_path / "h").mkdir()
    give_cache_secret(tmp_path / "h")
    (root / "cupcake.toml").write_text(POLICY)
    return root


def test_a_symlinked_cupcake_folder_is_never_written_through(tmp_path):
    root = _project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".cupcake").symlink_to(elsewhere)
    for command in ("rm -rf build", "ls"):
        answer = _run(root, command)
        assert "symbolic link" in answer.get("systemMessage", ""), answer
    assert answer.get("hookSpecificOutput", {}).get("permissionDecision") != "deny"
    blocked = _run(root, "rm -rf build")
    assert blocked["hookSpecificOutput"]["permissionDecision"] == "deny"  # the decision stands
    assert list(elsewhere.iterdir()) == []  # no cache, state, audit, lock or anchor outside


def test_a_symlink_planted_at_a_temporary_file_name_is_never_followed(tmp_path):
    root = _project(tmp_path)
    work = root / ".cupcake"
    work.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    try:
        with open("/proc/sys/kernel/ns_last_pid") as f:
            last = int(f.read())
    except OSError:
        last = os.getpid()
    # the names older versions used (<file>.<pid>.tmp), for the process ids coming next
    for pid in range(last + 1, last + 400):
        for base in ("policy.cache", "audit.anchor", "state/s1.idx"):
            planted = work / f"{base}.{pid}.tmp"
            planted.parent.mkdir(exist_ok=True)
            planted.symlink_to(victim)
    answer = _run(root, "rm -rf build")
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert victim.read_text() == "keep me\n"
    assert (work / "policy.cache").is_file() and not (work / "policy.cache").is_symlink()
    leftovers = [p for p in work.rglob("*.tmp") if not p.is_symlink()]
    assert leftovers == []
