"""The telemetry spool a run appends to: one line per hook call, never lost to a claim, bounded, and a
forwarder started at most once per interval; a warm run with telemetry on imports nothing slow."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

import cupcake
from cupcake import lean_os
from cupcake.project import SYSTEM_ROOT_VARIABLE
from cupcake.stores import spool
from cupcake.stores.policies.loader import load
from tests.conftest import give_cache_secret

TELEMETRY = '\n[telemetry]\nenabled = true\nendpoint = "http://127.0.0.1:9"\ninterval_seconds = 3600\n'
BLOCK = (
    '[[policy]]\nname = "no-force-push"\nmatcher = "Bash"\n'
    'conditions = [{ type = "command_regex", value = "--force" }]\n'
    'action = { type = "block_with_feedback", feedback_message = "Force-pushing is not allowed." }\n'
)


def lines(folder) -> list[dict]:
    path = os.path.join(folder, spool.SPOOL)
    with open(path, "rb") as f:
        return [json.loads(line) for line in f.read().splitlines()]


def test_a_record_is_one_line_appended_to_the_spool(tmp_path):
    workdir = tmp_path / ".cupcake"
    workdir.mkdir()
    assert spool.append(str(workdir), b'{"a":1}\n', 1 << 20)
    assert spool.append(str(workdir), b'{"a":2}\n', 1 << 20)
    assert lines(spool.directory(str(workdir))) == [{"a": 1}, {"a": 2}]
    assert oct(os.stat(workdir / "telemetry" / "spool.jsonl").st_mode & 0o777) == "0o600"


def test_a_full_spool_counts_the_record_in_overflow_instead(tmp_path):
    workdir = tmp_path / ".cupcake"
    workdir.mkdir()
    assert spool.append(str(workdir), b"x" * 90 + b"\n", 100)
    assert not spool.append(str(workdir), b"y" * 20 + b"\n", 100)
    assert not spool.append(str(workdir), b"z\n", 92)
    assert (workdir / "telemetry" / "spool.jsonl").read_bytes() == b"x" * 90 + b"\n"
    assert (workdir / "telemetry" / "overflow").read_bytes() == b"xx"


@pytest.mark.parametrize("where", [".cupcake", ".cupcake/telemetry"])
def test_a_symbolic_link_in_the_way_is_refused_not_followed(tmp_path, where):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    workdir = tmp_path / ".cupcake"
    if where == ".cupcake":
        workdir.symlink_to(elsewhere)
    else:
        workdir.mkdir()
        (workdir / "telemetry").symlink_to(elsewhere)
    with pytest.raises(OSError, match="symbolic link"):
        spool.append(str(workdir), b"{}\n", 1 << 20)
    assert list(elsewhere.iterdir()) == []


def test_a_run_that_opened_the_spool_before_a_claim_appends_to_the_new_one(tmp_path):
    """The forwarder renames the spool under its lock; a run holding the old file notices and reopens."""
    folder = tmp_path / ".cupcake" / "telemetry"
    folder.mkdir(parents=True)
    path = folder / "spool.jsonl"
    path.write_bytes(b'{"old":1}\n')
    real_open = os.open
    claimed = []

    def open_then_claim(name, flags, mode=0o777, **kw):
        fd = real_open(name, flags, mode, **kw)
        if name == str(path) and not claimed:  # the forwarder claims right after the run opened the file
            os.rename(path, folder / "batch.1.jsonl")
            claimed.append(True)
        return fd

    lean_os.open = open_then_claim  # the os calls the spool makes
    try:
        assert spool.append_locked(str(path), b'{"new":1}\n')
    finally:
        lean_os.open = real_open
    assert (folder / "batch.1.jsonl").read_bytes() == b'{"old":1}\n'
    assert path.read_bytes() == b'{"new":1}\n'


def test_the_stamp_lets_one_forwarder_start_per_interval(tmp_path):
    stamp = str(tmp_path / "forwarder.started")
    now = time.time()
    assert spool.due(stamp, 30, now)
    assert spool._claim(stamp, 30)
    assert not spool.due(stamp, 30, time.time())
    assert not spool._claim(stamp, 30)  # a second run within the interval starts none
    assert spool.due(stamp, 30, time.time() + 31)
    os.utime(stamp, (now + 3600, now + 3600))  # the clock was set back: the stamp is in the future
    assert spool.due(stamp, 30, time.time())


def test_the_forwarder_is_this_interpreter_running_the_forward_module(tmp_path):
    argv = spool.forwarder_command(str(tmp_path))
    assert argv[0] == sys.executable
    assert argv[-4:] == ["-m", "cupcake.telemetry.forward", "--background", str(tmp_path)]


def test_a_run_with_telemetry_on_spools_its_decision_and_starts_one_forwarder(project):
    project.write_policy(BLOCK + TELEMETRY)
    first = project.send(project.tool_call("Bash", {"command": "git push --force"}))
    project.send(project.tool_call("Bash", {"command": "ls"}))
    assert first.specific["permissionDecision"] == "deny"
    folder = project.root / ".cupcake" / "telemetry"
    blocked, allowed = lines(str(folder))
    assert blocked["decision"] == "block" and blocked["by"] == "no-force-push"
    assert blocked["fired"] == [["no-force-push", "block", "Force-pushing is not allowed.", "cupcake.toml", 1]]
    assert blocked["reason"] == "Operation blocked: Force-pushing is not allowed."
    assert (blocked["event"], blocked["tool"], blocked["agent"], blocked["call"]) == (
        "PreToolUse",
        "Bash",
        "claude",
        "toolu_01",
    )
    assert blocked["session"] == project.session_id
    assert blocked["input"] == {"command": "git push --force"}
    assert len(blocked["trace"]) == 32 and len(blocked["span"]) == 16 and blocked["trace"] != allowed["trace"]
    assert 0 < blocked["end"] - blocked["start"] < 30e9
    assert allowed["decision"] == "allow" and allowed["fired"] == [] and allowed["by"] is None
    assert (folder / "forwarder.started").exists()  # the first run started the forwarder, the second did not
    assert (folder / "forwarder.log").exists()


def test_a_pack_rule_is_named_by_its_id_and_self_protection_by_its_name(project):
    project.write_policy('imports = ["cupcake:git"]\n' + TELEMETRY)
    project.send(project.tool_call("Bash", {"command": "git push --force origin main"}))
    project.send(project.tool_call("Write", {"file_path": project.path("cupcake.toml"), "content": "x"}))
    pushed, protected = lines(str(project.root / ".cupcake" / "telemetry"))
    assert pushed["decision"] == "block"
    assert pushed["by"].startswith("git.") and pushed["fired"][0][0] == pushed["by"]
    assert pushed["fired"][0][3] == "cupcake:git"
    assert protected["decision"] == "block" and protected["fired"][0][0] == protected["by"]
    assert protected["fired"][0][3] is None  # a built-in check, from no file


def test_with_telemetry_off_nothing_is_spooled(project):
    project.write_policy(BLOCK)
    project.send(project.tool_call("Bash", {"command": "git push --force"}))
    assert not (project.root / ".cupcake" / "telemetry").exists()


SLOW = ("re", "json", "hashlib", "typing", "enum", "dataclasses", "pydantic", "typer", "subprocess", "urllib")
WARM_RUN = """
import sys
from cupcake.cli.run import execute
ctx = execute(sys.stdin.buffer.read(), ["--event", "PreToolUse"], {"CLAUDE_PROJECT_DIR": sys.argv[1], "HOME": sys.argv[1]})
print(ctx.envelope[0].decode().strip())
print(",".join(sorted(m for m in %r if m in sys.modules)))
print(",".join(sorted(sys.modules)))
""" % (SLOW,)


def _warm_run(folder, policy: str) -> tuple[str, str, set]:
    """(the answer, the slow modules it imported, every module it imported) of a warm run in ``folder``."""
    (folder / "cupcake.toml").write_text(policy)
    give_cache_secret(folder)  # as sync leaves it: the run then trusts the cache built here
    assert load(str(folder), {"HOME": str(folder)}).compiled["out_of_service"] is None  # the cache, built cold
    payload = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(folder)}
    payload["tool_input"] = {"command": "git push --force"}
    repo = os.path.dirname(os.path.dirname(cupcake.__file__))
    done = subprocess.run(
        [sys.executable, "-S", "-c", WARM_RUN, str(folder)],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={"PYTHONPATH": repo, SYSTEM_ROOT_VARIABLE: os.environ[SYSTEM_ROOT_VARIABLE]},  # the session's stand-in /etc
        check=True,
    )
    answer, slow, modules = done.stdout.decode().split("\n")[:3]
    return answer, slow, set(modules.split(","))


def test_a_warm_run_with_telemetry_on_imports_one_module_more_than_with_it_off(tmp_path):
    (tmp_path / "on" / ".cupcake" / "telemetry").mkdir(parents=True)
    (tmp_path / "on" / ".cupcake" / "telemetry" / "forwarder.started").write_text("1")  # within the interval
    (tmp_path / "off").mkdir()
    answer, slow, on = _warm_run(tmp_path / "on", BLOCK + TELEMETRY)
    answer_off, slow_off, off = _warm_run(tmp_path / "off", BLOCK)
    assert "Force-pushing is not allowed." in answer and "Force-pushing is not allowed." in answer_off
    assert slow == slow_off == ""
    assert on - off == {"cupcake.stores.spool"}  # no forwarder code, nothing of the standard library
    assert len(lines(str(tmp_path / "on" / ".cupcake" / "telemetry"))) == 1
