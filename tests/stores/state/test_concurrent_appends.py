"""Many processes appending to one session log at once: every line whole, no line lost, none added."""

from __future__ import annotations

import json
import multiprocessing
import os

from cupcake.stores.state import store

WRITERS, APPENDS, WIDTH = 6, 150, 20_000  # long lines keep each write in flight for a while


def _writer(directory: str, number: int) -> None:
    dir_fd = os.open(directory, os.O_RDONLY)
    try:
        for i in range(APPENDS):
            store.append(dir_fd, "session", [{"writer": number, "i": i, "pad": "x" * WIDTH}])
    finally:
        os.close(dir_fd)


def test_concurrent_appends_keep_every_line_whole_and_add_none(tmp_path):
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_writer, args=(str(tmp_path), n)) for n in range(WRITERS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    lines = (tmp_path / f"session{store.LOG_SUFFIX}").read_bytes().split(b"\n")
    assert lines[-1] == b""  # the log ends with a newline
    entries = [json.loads(line) for line in lines[:-1]]  # a blank or torn line fails here
    assert sorted((e["writer"], e["i"]) for e in entries) == [(w, i) for w in range(WRITERS) for i in range(APPENDS)]
