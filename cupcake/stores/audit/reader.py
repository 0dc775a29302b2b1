"""Read the audit trail: ``audit.log`` and its rotations, oldest line first (cold path)."""

from __future__ import annotations

from cupcake import jsonio
from cupcake import lean_os as os
from cupcake.agents import project_dir_in
from cupcake.project import WORK_DIR, find_root
from cupcake.stores.audit.writer import LOG_NAME, trail_files


class Entry:
    """One stored line: where it is, its bytes, and its record (None when it is not a JSON object)."""

    __slots__ = ("file", "lineno", "raw", "record", "error")

    def __init__(self, file: str, lineno: int, raw: bytes):
        self.file = file
        self.lineno = lineno
        self.raw = raw
        self.record = None
        self.error = None
        try:
            value = jsonio.loads(raw)
        except jsonio.DecodeError as exc:
            self.error = f"not valid JSON ({exc})"
            return
        if isinstance(value, dict):
            self.record = value
        else:
            self.error = f"not a JSON object (a {type(value).__name__})"

    @property
    def where(self) -> str:
        return f"{os.path.basename(self.file)} line {self.lineno}"


def default_log(env, cwd=None) -> str:
    """``<root>/.cupcake/audit.log`` for the project around ``cwd`` (the root as ``cupcake run`` finds it)."""
    return os.path.join(find_root(project_dir_in(env), cwd or os.getcwd()), WORK_DIR, LOG_NAME)


def split_lines(data: bytes):
    """(complete lines, the unfinished rest after the last newline)."""
    lines = data.split(b"\n")
    return lines[:-1], lines[-1]


def file_entries(path: str, data: bytes):
    lines, rest = split_lines(data)
    if rest:
        lines.append(rest)  # a last line without its newline: still shown, and verify flags it
    return [Entry(path, n, raw) for n, raw in enumerate(lines, 1)]


def read_trail(path: str):
    """Every entry of every file, oldest first."""
    found = []
    for file in trail_files(path):
        with open(file, "rb") as f:
            found.extend(file_entries(file, f.read()))
    return found
