"""``cupcake audit --follow``: keep printing new records as hook runs append them.

The current file is read through one open handle from where the history stopped, polled at a
fixed interval, at most ``CHUNK`` bytes per read. After a rotation the old handle (now
``audit.log.1``, or older if the log rotated more than once between two polls) is drained first,
then the files rotated after it, then the new ``audit.log`` from its start; lines are also
de-duplicated by ``seq``, so no line is lost or shown twice."""

from __future__ import annotations

import time

from cupcake import lean_os as os
from cupcake.stores.audit.reader import Entry, file_entries, split_lines, trail_files

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only
    from typing import BinaryIO

INTERVAL = 0.25  # seconds between polls
CHUNK = 1 << 20


class Tail:
    def __init__(self, path: str):
        self.path = path
        self.fh: BinaryIO | None = None
        self.ino: int | None = None
        self.rest = b""
        self.last_seq = 0
        self._open()

    def _open(self) -> None:
        try:
            fh = self.fh = open(self.path, "rb")
        except OSError:
            self.fh, self.ino = None, None
            return
        self.ino = os.fstat(fh.fileno()).st_ino
        self.rest = b""

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()
            self.fh = None

    def read(self) -> list[Entry]:
        """The complete lines appended since the last read (a partial last line waits for its end)."""
        found: list[Entry] = []
        while True:
            if self.fh is None:
                self._open()
                if self.fh is None:
                    break
            if self._drain(found):
                continue  # a whole chunk: there may be more
            if not self._moved(found):
                break
        fresh = []
        for entry in found:
            seq = entry.record.get("seq") if entry.record else None
            if isinstance(seq, int):
                if seq <= self.last_seq:
                    continue
                self.last_seq = seq
            fresh.append(entry)
        return fresh

    def _drain(self, found: list) -> bool:
        assert self.fh is not None  # read() drains only an open file
        data = self.fh.read(CHUNK)
        if data:
            lines, self.rest = split_lines(self.rest + data)
            found.extend(Entry(self.path, 0, raw) for raw in lines if raw)
        return len(data) == CHUNK

    def _rotated_since(self) -> list[Entry]:
        """The whole files rotated after the one this handle read (all of them when it is gone: ``seq``
        then drops what was shown)."""
        later: list[Entry] = []
        for file in trail_files(self.path):  # oldest first
            if file == self.path:
                continue
            try:
                with open(file, "rb") as f:
                    if os.fstat(f.fileno()).st_ino == self.ino:
                        later = []  # this one and everything older was read already
                        continue
                    later.extend(file_entries(file, f.read()))
            except OSError:
                continue
        return later

    def _moved(self, found: list) -> bool:
        """True when the path now names another file (rotated) or was truncated, and we switched."""
        try:
            st = os.stat(self.path)
        except OSError:
            return False
        if st.st_ino != self.ino:
            while self._drain(found):  # lines written to the old file before it was renamed
                pass
            found.extend(self._rotated_since())
            self.close()
            self._open()
            return True
        assert self.fh is not None  # read() asks only with a file open
        if st.st_size < self.fh.tell():  # truncated in place: start again from its beginning
            self.fh.seek(0)
            self.rest = b""
            return True
        return False


def follow(tail: Tail, emit, interval: float = INTERVAL, until: float | None = None) -> None:
    """Call ``emit(entry)`` for every new line until Ctrl-C (or ``until``, a monotonic time)."""
    try:
        while until is None or time.monotonic() < until:
            for entry in tail.read():
                emit(entry)
            time.sleep(interval)
    except KeyboardInterrupt:
        pass
    finally:
        tail.close()
