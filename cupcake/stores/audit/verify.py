"""``cupcake audit verify``: walk the hash chain over every file, oldest line first, and report
the first broken link: which line, and what is wrong with it.

Each line's own ``hash`` shows that it was changed; ``prev`` and ``seq`` show lines removed,
inserted or reordered. The chain has no secret key: it catches edits made by hand or by a tool
that does not know the format, not a forger who recomputes every hash after their edit, and
lines cut off the end leave no trace in it (ship the lines elsewhere for that)."""

from __future__ import annotations

import os

from cupcake.stores.audit.chain import GENESIS, SCHEMA_VERSION, line_hash, seal_holds
from cupcake.stores.audit.reader import file_entries, split_lines, trail_files

_HEX = frozenset("0123456789abcdef")


class Verdict:
    __slots__ = ("lines", "files", "first_seq", "last_seq", "broken_at", "problem")

    def __init__(self):
        self.lines = 0
        self.files = []
        self.first_seq = None
        self.last_seq = None
        self.broken_at = None  # "audit.log line 7"
        self.problem = None

    @property
    def ok(self) -> bool:
        return self.problem is None and self.lines > 0

    def as_dict(self) -> dict:
        return {
            "ok": self.ok,
            "lines": self.lines,
            "files": [os.path.basename(f) for f in self.files],
            "first_seq": self.first_seq,
            "last_seq": self.last_seq,
            "broken": {"at": self.broken_at, "problem": self.problem} if self.problem else None,
        }

    def text(self) -> str:
        if self.problem:
            return f"Audit trail broken at {self.broken_at}: {self.problem}"
        if not self.lines:
            return "The audit log is empty: nothing to verify."
        files = f"{len(self.files)} file{'s' if len(self.files) != 1 else ''}"
        text = (
            f"Audit trail intact: {self.lines} line{'s' if self.lines != 1 else ''} in {files}, "
            f"seq {self.first_seq} to {self.last_seq}."
        )
        if self.first_seq and self.first_seq > 1:
            text += (
                f" The {self.first_seq - 1} older lines were rotated away, so the first line's link to them"
                " cannot be checked."
            )
        return text


def _fields(entry):
    """(seq, prev) of a line, or the problem that keeps it from being part of the chain."""
    if entry.record is None:
        if not entry.raw.strip():
            return None, "the line is empty"
        return None, f"the line is {entry.error}: edited by hand, or cut short"
    record = entry.record
    version = record.get("v")
    if version != SCHEMA_VERSION:
        if isinstance(version, int) and version > SCHEMA_VERSION:
            return None, f"written with audit schema v{version}; this Cupcake knows v{SCHEMA_VERSION}"
        return None, f"`v` is {version!r}, not the schema version {SCHEMA_VERSION}"
    seq, prev = record.get("seq"), record.get("prev")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        return None, f"`seq` is {seq!r}, not a line number"
    if not isinstance(prev, str) or len(prev) != 64 or not set(prev) <= _HEX:
        return None, f"`prev` is {prev!r}, not a SHA-256 hash"
    problem = seal_holds(entry.raw)
    if problem:
        return None, problem
    return (seq, prev), None


def _link(entry, seq, prev, previous, previous_seq):
    """What is wrong with the link from ``previous`` to ``entry`` (None: it holds)."""
    if previous is None:
        if seq == 1 and prev != GENESIS:
            return "the first line of the trail (seq 1) must have a `prev` of 64 zeros"
        return None
    if seq > previous_seq + 1:
        missing = seq - previous_seq - 1
        return (
            f"seq jumps from {previous_seq} ({previous.where}) to {seq}: "
            f"{missing} line{'s are' if missing > 1 else ' is'} missing"
        )
    if seq != previous_seq + 1:
        return f"seq {seq} follows seq {previous_seq} ({previous.where}): a line was inserted, repeated or moved"
    expected = line_hash(previous.raw)
    if prev != expected:
        return (
            f"{previous.where} was changed after it was written: its hash is {expected[:16]}…, "
            f"but the next line recorded {prev[:16]}…"
        )
    return None


def verify(path: str) -> Verdict:
    verdict = Verdict()
    verdict.files = trail_files(path)
    previous, previous_seq = None, 0
    for file in verdict.files:
        with open(file, "rb") as f:
            data = f.read()
        _lines, rest = split_lines(data)
        entries = file_entries(file, data)
        for entry in entries:
            fields, problem = _fields(entry)
            if problem is None:
                seq, prev = fields
                problem = _link(entry, seq, prev, previous, previous_seq)
            if problem is None and rest and entry is entries[-1]:
                problem = "the last line has no newline: a write that never finished, or an edit"
            if problem is not None:
                verdict.broken_at, verdict.problem = entry.where, problem
                return verdict
            verdict.lines += 1
            verdict.first_seq = verdict.first_seq or seq
            verdict.last_seq = seq
            previous, previous_seq = entry, seq
    return verdict
