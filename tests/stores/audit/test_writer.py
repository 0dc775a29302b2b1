"""The writer: one line per append under the lock, the chain across rotations, no partial lines."""

from __future__ import annotations

import fcntl
import json
import os

import pytest

from cupcake import lean_os
from cupcake.stores.audit.chain import GENESIS, line_hash
from cupcake.stores.audit.verify import verify
from cupcake.stores.audit.writer import AuditWriteError, append


def body(n: int) -> str:
    return json.dumps({"time": "2025-01-01T00:00:00.000Z", "n": n}, separators=(",", ":"))


def lines(path) -> list[bytes]:
    return path.read_bytes().splitlines()


def test_lines_are_chained_from_the_genesis(tmp_path):
    for n in range(3):
        append(str(tmp_path), body(n))
    first, second, third = lines(tmp_path / "audit.log")
    assert json.loads(first)["prev"] == GENESIS and json.loads(first)["seq"] == 1
    assert json.loads(second)["prev"] == line_hash(first)
    assert json.loads(third)["prev"] == line_hash(second) and json.loads(third)["seq"] == 3
    assert json.loads(third)["n"] == 2


def test_a_held_lock_is_waited_for_then_given_up_with_a_clear_error(tmp_path):
    append(str(tmp_path), body(0))
    holder = os.open(tmp_path / "audit.lock", os.O_RDWR)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        with pytest.raises(AuditWriteError, match="held by another process for more than 0.2 s; the record was kept"):
            append(str(tmp_path), body(1), wait=0.2)
    finally:
        os.close(holder)
    append(str(tmp_path), body(2), wait=0.2)  # the kept record joins the chain first, in order
    assert [json.loads(line)["n"] for line in lines(tmp_path / "audit.log")] == [0, 1, 2]
    assert not list(tmp_path.glob("audit.pending.*"))


def test_rotation_keeps_the_chain_and_the_newest_files(tmp_path):
    for n in range(20):
        append(str(tmp_path), body(n), max_bytes=400, keep=3)
    names = sorted(p.name for p in tmp_path.glob("audit.log*"))
    assert names == ["audit.log", "audit.log.1", "audit.log.2", "audit.log.3"]
    assert all((tmp_path / n).stat().st_size <= 400 for n in names)
    oldest_first = [tmp_path / n for n in ("audit.log.3", "audit.log.2", "audit.log.1", "audit.log")]
    chained = [line for path in oldest_first for line in lines(path)]
    seqs = [json.loads(line)["seq"] for line in chained]
    assert seqs == list(range(seqs[0], 21))
    for before, after in zip(chained, chained[1:]):
        assert json.loads(after)["prev"] == line_hash(before)
    assert verify(str(tmp_path / "audit.log")).ok


def test_after_a_rotation_the_next_writer_continues_from_the_rotated_file(tmp_path):
    append(str(tmp_path), body(0))
    os.replace(tmp_path / "audit.log", tmp_path / "audit.log.1")  # a rotation whose writer died
    append(str(tmp_path), body(1))
    (line,) = lines(tmp_path / "audit.log")
    assert json.loads(line)["seq"] == 2
    assert json.loads(line)["prev"] == line_hash(lines(tmp_path / "audit.log.1")[0])


def test_a_cut_off_last_line_is_left_as_evidence_and_the_next_line_starts_on_its_own(tmp_path):
    append(str(tmp_path), body(0))
    with open(tmp_path / "audit.log", "ab") as f:
        f.write(b'{"v":1,"seq":2,"prev":"')
    append(str(tmp_path), body(2))
    assert len(lines(tmp_path / "audit.log")) == 3
    assert json.loads(lines(tmp_path / "audit.log")[2])["n"] == 2
    verdict = verify(str(tmp_path / "audit.log"))
    assert verdict.broken_at == "audit.log line 2" and "not valid JSON" in verdict.problem


def test_a_write_that_fails_half_way_is_rolled_back(tmp_path, monkeypatch):
    append(str(tmp_path), body(0))
    size = (tmp_path / "audit.log").stat().st_size
    real_write = os.write
    monkeypatch.setattr(lean_os, "write", lambda fd, data: real_write(fd, data[: len(data) // 2]))  # what it calls
    with pytest.raises(AuditWriteError, match="short write"):
        append(str(tmp_path), body(1))
    monkeypatch.undo()
    assert (tmp_path / "audit.log").stat().st_size == size
    append(str(tmp_path), body(1))
    assert verify(str(tmp_path / "audit.log")).ok


def test_new_files_are_private(tmp_path):
    os.umask(0o022)
    append(str(tmp_path), body(0))
    assert (tmp_path / "audit.log").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "audit.lock").stat().st_mode & 0o777 == 0o600
