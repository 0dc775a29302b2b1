"""The summary beside the session log: current summaries answer without reading the log, a grown
log is read from where the summary stopped, and anything damaged or foreign is rebuilt from the log."""

from __future__ import annotations

import json
import multiprocessing
import os
import time

import pytest

from cupcake.evaluate.patterns import Patterns
from cupcake.stores.state import index, store
from cupcake.stores.state.timestamps import iso_timestamp

READS = ("tool", ("Read",), "notes.md", None, None, True)
FAILED_TESTS = ("tool", ("Bash",), None, None, "^npm test", False)
PASSED = ("event", ("tests_passed",), None, None, None, None)


def read(path="notes.md", success=True, when=None):
    return {
        "timestamp": iso_timestamp(when or time.time()),
        "tool": "Read",
        "success": success,
        "input": {"file_path": "/p/" + path},
        "path": path,
    }


def failed_test(when=None):
    return {
        "timestamp": iso_timestamp(when or time.time()),
        "tool": "Bash",
        "success": False,
        "input": {"command": "npm test -- cart"},
    }


@pytest.fixture
def state(tmp_path):
    (tmp_path / ".cupcake").mkdir()
    fd = store.open_state_dir(str(tmp_path), create=True)
    yield fd, tmp_path / ".cupcake" / "state"
    os.close(fd)


def totals(stats):
    return {key: found[1] for key, found in stats.items()}


def test_a_session_without_a_log_has_no_state(state):
    fd, _ = state
    assert index.load(fd, "s", {READS: 0}, Patterns()) == ({}, [])


def test_counts_follow_the_log(state):
    fd, _ = state
    store.append(fd, "s", [read(), read("other.md"), read(success=False), {"timestamp": "x", "event": "tests_passed"}])
    stats, warnings = index.load(fd, "s", {READS: 0, PASSED: 0, FAILED_TESTS: 0}, Patterns())
    assert totals(stats) == {READS: 1, PASSED: 1, FAILED_TESTS: 0} and warnings == []
    store.append(fd, "s", [read(), failed_test()])
    stats, _ = index.load(fd, "s", {READS: 0, PASSED: 0, FAILED_TESTS: 0}, Patterns())
    assert totals(stats) == {READS: 2, PASSED: 1, FAILED_TESTS: 1}


def test_a_current_summary_answers_without_reading_the_log(state, monkeypatch):
    fd, _ = state
    store.append(fd, "s", [read()] * 5)
    index.load(fd, "s", {READS: 0}, Patterns())

    def no_scan(*args):
        raise AssertionError("the log was read")

    monkeypatch.setattr(index, "_scan", no_scan)
    stats, _ = index.load(fd, "s", {READS: 0}, Patterns())
    assert totals(stats) == {READS: 5}


def test_a_grown_log_is_read_from_where_the_summary_stopped(state, monkeypatch):
    fd, directory = state
    store.append(fd, "s", [read()] * 100)
    index.load(fd, "s", {READS: 0}, Patterns())
    size = (directory / "s.json").stat().st_size
    store.append(fd, "s", [read()])
    starts = []
    real = index._scan
    monkeypatch.setattr(index, "_scan", lambda fd_, start, *rest: starts.append(start) or real(fd_, start, *rest))
    stats, _ = index.load(fd, "s", {READS: 0}, Patterns())
    assert starts == [size] and totals(stats) == {READS: 101}


@pytest.mark.parametrize("damage", [b"", b"garbage", b"\xe3\x01\x00\x00\x00", None])
def test_a_damaged_or_missing_summary_is_rebuilt_from_the_log(state, damage):
    fd, directory = state
    store.append(fd, "s", [read()] * 3)
    index.load(fd, "s", {READS: 0}, Patterns())
    if damage is None:
        (directory / "s.idx").unlink()
    else:
        (directory / "s.idx").write_bytes(damage)
    stats, warnings = index.load(fd, "s", {READS: 0}, Patterns())
    assert totals(stats) == {READS: 3} and warnings == []


def test_a_log_replaced_by_a_new_one_is_read_from_the_start(state):
    fd, directory = state
    store.append(fd, "s", [read()] * 3)
    index.load(fd, "s", {READS: 0}, Patterns())
    (directory / "s.json").unlink()  # the summary stays behind; the new log may even reuse the inode
    store.append(fd, "s", [read("other.md", when=1.0)] * 4 + [read()])
    stats, _ = index.load(fd, "s", {READS: 0}, Patterns())
    assert totals(stats) == {READS: 1}


def test_a_filter_the_policies_add_later_is_counted_from_the_start(state):
    fd, _ = state
    store.append(fd, "s", [read(), failed_test(), failed_test()])
    index.load(fd, "s", {READS: 0}, Patterns())
    store.append(fd, "s", [failed_test()])
    stats, _ = index.load(fd, "s", {READS: 0, FAILED_TESTS: 3}, Patterns())
    assert totals(stats) == {READS: 1, FAILED_TESTS: 3}
    assert len(stats[FAILED_TESTS][2]) == 3


def test_only_the_latest_times_are_kept(state):
    fd, _ = state
    now = time.time()
    store.append(
        fd, "s", [failed_test(now - 3600 + i) for i in range(10)] + [failed_test(now - 5), failed_test(now - 1)]
    )
    stats, _ = index.load(fd, "s", {FAILED_TESTS: 2}, Patterns())
    kept, total, times = stats[FAILED_TESTS]
    assert (kept, total) == (2, 12) and times == pytest.approx([now - 5, now - 1], abs=0.01)


def test_corrupt_lines_are_skipped_and_reported_once(state):
    fd, directory = state
    store.append(fd, "s", [read()])
    with open(directory / "s.json", "ab") as f:
        f.write(b'{"tool": "Re\n[1, 2]\n\xff\xfe\n' + b"[" * 100_000 + b"\n")
    store.append(fd, "s", [read()])
    stats, warnings = index.load(fd, "s", {READS: 0}, Patterns())
    assert totals(stats) == {READS: 2}
    assert warnings == ["skipped 4 corrupt lines in the session state (.cupcake/state/s.json, lines 2, 3, 4, 5)"]
    store.append(fd, "s", [read()])
    assert index.load(fd, "s", {READS: 0}, Patterns())[1] == []


def test_a_line_still_being_written_is_left_for_later(state):
    fd, directory = state
    store.append(fd, "s", [read()])
    line = store.encode_line(read())
    with open(directory / "s.json", "ab") as f:
        f.write(line[:20])
    stats, warnings = index.load(fd, "s", {READS: 0}, Patterns())
    assert totals(stats) == {READS: 1} and warnings == []
    with open(directory / "s.json", "ab") as f:
        f.write(line[20:])
    assert totals(index.load(fd, "s", {READS: 0}, Patterns())[0]) == {READS: 2}


def test_the_log_is_a_readable_json_line_per_entry(state):
    fd, directory = state
    store.append(fd, "s", [read(), {"timestamp": "t", "event": "tests_passed", "data": {"n": 1}}])
    lines = (directory / "s.json").read_text().splitlines()
    assert [json.loads(line)["tool" if i == 0 else "event"] for i, line in enumerate(lines)] == ["Read", "tests_passed"]


def _append_and_query(directory: str, rounds: int) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(rounds):
        store.append(fd, "s", [read()])
        index.load(fd, "s", {READS: 0}, Patterns())
    os.close(fd)


def test_runs_in_parallel_keep_the_summary_exact(state):
    fd, directory = state
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append_and_query, args=(str(directory), 20)) for _ in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    stats, warnings = index.load(fd, "s", {READS: 0}, Patterns())
    assert totals(stats) == {READS: 120} and warnings == []
