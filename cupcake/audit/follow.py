"""``cupcake audit --follow``: keep printing new records as hook runs append them.

The current file is read through one open handle from where the history stopped, polled at a
fixed interval, at most ``CHUNK`` bytes per read. After a rotation the old handle (now
``audit.log.1``) is drained first, then the new ``audit.log`` is read from its start, so no line
is lost or shown twice."""

from __future__ import annotations

import os
import time

from cupcake.audit.reader import Entry, split_lines

INTERVAL = 0.25  # seconds between polls
CHUNK = 1 << 20


class Tail:
    def __init__(self, path: str):
        self.path = path
        self.fh = None
        self.ino = None
        self.rest = b""
        self._open()

    def _open(self) -> None:
        try:
            self.fh = open(self.path, "rb")
        except OSError:
            self.fh, self.ino = None, None
            return
        self.ino = os.fstat(self.fh.fileno()).st_ino
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
                    return found
            if self._drain(found):
                continue  # a whole chunk: there may be more
            if not self._moved(found):
                return found

    def _drain(self, found: list) -> bool:
        data = self.fh.read(CHUNK)
        if data:
            lines, self.rest = split_lines(self.rest + data)
            found.extend(Entry(self.path, 0, raw) for raw in lines if raw)
        return len(data) == CHUNK

    def _moved(self, found: list) -> bool:
        """True when the path now names another file (rotated) or was truncated, and we switched."""
        try:
            st = os.stat(self.path)
        except OSError:
            return False
        if st.st_ino != self.ino:
            while self._drain(found):  # lines written to the old file before it was renamed
                pass
            self.close()
            self._open()
            return True
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
