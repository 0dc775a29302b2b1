"""One file of rules (a CLAUDE.md or a file it imports), and what was noticed while reading it."""

from __future__ import annotations

PROJECT, USER = "project", "user"
MAX_FILE_BYTES = 256 * 1024  # of one file's text given to the agent; the rest is cut, with a note


class Memory:
    """One file of rules: its path, whose rules they are, and how it was found."""

    __slots__ = ("path", "scope", "origin", "depth", "text", "imported_by", "line")

    def __init__(self, path: str, scope: str, origin: str, depth: int = 0, imported_by=None, line=None):
        self.path = path  # absolute, symlinks resolved
        self.scope = scope  # PROJECT or USER
        self.origin = origin  # "current directory", "parent directory", "subdirectory", "user memory", "import"
        self.depth = depth  # imports followed to reach it (0: found directly)
        self.imported_by = imported_by  # the Memory whose @import named it
        self.line = line  # the line of that @import
        self.text = ""


class Finding:
    """Something the user should know about the search: a missing import, a cycle, a cut file."""

    __slots__ = ("where", "message")

    def __init__(self, where: str, message: str):
        self.where = where
        self.message = message

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


def read_memory(memory: Memory, found) -> None:
    """Read ``memory.text``; anything odd (unreadable, too long, not UTF-8) becomes a finding."""
    where = found.shown(memory.path)
    try:
        with open(memory.path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        found.findings.append(Finding(where, f"cannot be read: {exc.strerror or exc}"))
        return
    cut = len(data) > MAX_FILE_BYTES
    if cut:
        data = data[:MAX_FILE_BYTES]
        while data and data[-1] & 0xC0 == 0x80:  # no half character at the cut
            data = data[:-1]
        data = data[:-1] if data and data[-1] >= 0xC0 else data
        found.findings.append(Finding(where, f"longer than {MAX_FILE_BYTES:,} bytes: only the start is used"))
    try:
        memory.text = data.decode("utf-8")
    except UnicodeDecodeError:
        memory.text = data.decode("utf-8", errors="replace")
        found.findings.append(Finding(where, "not UTF-8 text: undecodable bytes were replaced"))
