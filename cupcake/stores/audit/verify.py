"""``cupcake audit verify``: walk the hash chain over every file, oldest line first, and report
the first broken link: which line, and what is wrong with it.

Each line's own ``hash`` shows that it was changed; ``prev`` and ``seq`` show lines removed,
inserted or reordered. ``audit.anchor`` (see ``anchor``) then shows lines cut off the head or the
tail and rotated files deleted or cut. Neither has a secret key: they catch edits made by hand or by
a tool that does not know the format, not a forger who recomputes every hash and the anchor after
their edit (ship the lines elsewhere for that)."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.stores.audit.chain import GENESIS, SCHEMA_VERSION, line_hash, seal_holds
from cupcake.stores.audit.reader import file_entries, split_lines, trail_files

_HEX = frozenset("0123456789abcdef")


class Verdict:
    __slots__ = (
        "lines",
        "files",
        "first_seq",
        "last_seq",
        "broken_at",
        "problem",
        "first_prev",
        "last_hash",
        "last_line",
    )

    def __init__(self):
        self.first_prev = self.last_hash = self.last_line = None
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
                f" The {self.first_seq - 1} older lines were rotated away (as the anchor records), and the"
                " first line's link to them holds."
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
    verdict = _walk(path)
    if verdict.problem is None and verdict.lines:
        where, problem = _anchor_problem(path, verdict)
        if problem:
            verdict.broken_at, verdict.problem = where, problem
    return verdict


def _anchor_problem(path: str, verdict: Verdict):
    """(where, what) when the anchor disagrees with the files (a cut head or tail, a deleted file)."""
    from cupcake.stores.audit import anchor as anchors
    from cupcake.stores.audit.writer import last_line

    workdir = os.path.dirname(path)
    shown = anchors.ANCHOR_NAME
    state = anchors.read(workdir)
    if state is None:
        return shown, (
            f"{shown} is missing: lines cut from the head or the tail of the trail cannot be ruled out "
            "(it is written with every record; was it deleted?)"
        )
    if isinstance(state, str):
        return shown, state
    if state["breaks"]:
        return shown, f"{len(state['breaks'])} break(s) were found while writing; the first: {state['breaks'][0]}"
    present = {os.path.basename(f) for f in verdict.files}
    for name, ends in sorted(state["files"].items()):
        if name not in present:
            return name, f"{name} is missing: the anchor says it held seq {ends[0]} to {ends[1]} (deleted?)"
    for file in verdict.files[:-1] if os.path.basename(verdict.files[-1]) == os.path.basename(path) else verdict.files:
        name = os.path.basename(file)
        ends = state["files"].get(name)
        if ends is None:
            return name, f"{name} is not a rotated file the anchor knows of"
        fd = os.open(file, os.O_RDONLY)
        try:
            last, _ = last_line(fd, os.fstat(fd).st_size)
        finally:
            os.close(fd)
        if last is None or line_hash(last) != ends[2]:
            return (
                name,
                f"{name} does not end with the line the anchor recorded (seq {ends[1]}): lines were cut from it",
            )
    if verdict.first_seq != state["dropped"] + 1:
        if verdict.first_seq > state["dropped"] + 1:
            cut = verdict.first_seq - state["dropped"] - 1
            return f"{os.path.basename(verdict.files[0])} line 1", (
                f"the trail starts at seq {verdict.first_seq}, but only lines up to seq {state['dropped']} were "
                f"rotated away: {cut} line{'s were' if cut > 1 else ' was'} cut from the head"
            )
        return (
            shown,
            f"the anchor says lines up to seq {state['dropped']} were rotated away, but the trail starts at seq {verdict.first_seq}",
        )
    if state["dropped"] and verdict.first_prev != state["dropped_hash"]:
        return (
            f"{os.path.basename(verdict.files[0])} line 1",
            "the first line does not follow the last line rotated away",
        )
    if verdict.last_seq != state["last_seq"] or verdict.last_hash != state["last"]:
        if verdict.last_seq < state["last_seq"]:
            cut = state["last_seq"] - verdict.last_seq
            return f"{os.path.basename(verdict.files[-1])} line {verdict.last_line}", (
                f"the trail ends at seq {verdict.last_seq}, but the last line written was seq {state['last_seq']}: "
                f"{cut} line{'s were' if cut > 1 else ' was'} cut from the tail"
            )
        return shown, (
            f"the anchor's last line is seq {state['last_seq']}, but the trail ends at seq {verdict.last_seq} with "
            "another line (a run interrupted between the two writes, or the log was replaced)"
        )
    return None, None


def _walk(path: str) -> Verdict:
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
            if verdict.first_seq is None:
                verdict.first_seq, verdict.first_prev = seq, prev
            verdict.last_seq = seq
            verdict.last_hash, verdict.last_line = line_hash(entry.raw), entry.lineno
            previous, previous_seq = entry, seq
    return verdict
