"""Keeping the tail of a stream: test runners print their summary last."""

from __future__ import annotations


def cut_note(omitted: int) -> str:
    return f"[output cut: the first {omitted} bytes are not shown]\n"


class OutputTail:
    """The last ``limit`` bytes of everything added, and how much came in total."""

    __slots__ = ("limit", "total", "_buf")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self._buf = bytearray()

    def add(self, data: bytes) -> None:
        self.total += len(data)
        self._buf += data
        if len(self._buf) > 2 * self.limit:
            del self._buf[: len(self._buf) - self.limit]

    def text(self) -> str:
        """The kept bytes as text (UTF-8, bad bytes replaced); when cut, a note first and no half character."""
        data = bytes(self._buf[-self.limit :]) if len(self._buf) > self.limit else bytes(self._buf)
        if self.total <= len(data):
            return data.decode("utf-8", errors="replace")
        skip = 0
        while skip < min(3, len(data)) and data[skip] & 0xC0 == 0x80:  # UTF-8 continuation bytes
            skip += 1
        data = data[skip:]
        return cut_note(self.total - len(data)) + data.decode("utf-8", errors="replace")
