"""Following the log across a rotation loses no line and repeats none."""

from __future__ import annotations

import json

from cupcake.stores.audit.follow import Tail
from cupcake.stores.audit.writer import append


def seqs(entries):
    return [e.record["seq"] for e in entries]


def test_the_tail_reads_on_across_rotations(tmp_path):
    log = str(tmp_path / "audit.log")
    append(str(tmp_path), json.dumps({"n": 0}))
    tail = Tail(log)
    assert seqs(tail.read()) == [1]
    for n in range(1, 12):  # several rotations between two reads
        append(str(tmp_path), json.dumps({"n": n, "pad": "x" * 200}), max_bytes=1024, keep=9)
    assert seqs(tail.read()) == list(range(2, 13))
    assert tail.read() == []
    append(str(tmp_path), json.dumps({"n": 12}), max_bytes=1024, keep=9)
    assert seqs(tail.read()) == [13]
    tail.close()


def test_a_line_still_being_written_waits_for_its_end(tmp_path):
    path = tmp_path / "audit.log"
    path.write_bytes(b'{"seq":1}\n{"seq":')
    tail = Tail(str(path))
    assert seqs(tail.read()) == [1]
    with open(path, "ab") as f:
        f.write(b"2}\n")
    assert seqs(tail.read()) == [2]
    tail.close()


def test_the_tail_waits_for_a_log_that_does_not_exist_yet(tmp_path):
    tail = Tail(str(tmp_path / "audit.log"))
    assert tail.read() == []
    append(str(tmp_path), json.dumps({"n": 0}))
    assert seqs(tail.read()) == [1]
    tail.close()
