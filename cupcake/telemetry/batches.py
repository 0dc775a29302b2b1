"""The forwarder's side of the spool: claiming what the runs appended, reading it in order, the cursor,
and the bound (cold path).

    .cupcake/telemetry/
      spool.jsonl              the runs append here (``spool``)
      batch.<ns>.jsonl         claimed from the spool by a forwarder, oldest first; never appended to again
      overflow                 one byte per record a run could not spool (the spool was full)
      cursor.json              per signal, how far the receiver has accepted; the counts `doctor` shows
      forward.lock             held by the one forwarder at work

A position is ``[batch name, byte offset]``: everything before it was accepted. It moves only after the
receiver accepted a batch, and the cursor is replaced atomically, so a forwarder that dies half way sends
the unacknowledged lines again and never skips one. A batch every signal has passed is deleted. When the
waiting lines outgrow ``max_spool_bytes`` (the receiver has been down long), the oldest batches are
deleted unsent, and their lines are counted as dropped.
"""

from __future__ import annotations

import json
import os
import time

from cupcake.stores.atomic_write import write_atomically
from cupcake.stores.safe_files import ensure_dir
from cupcake.stores.spool import BATCH_PREFIX, BATCH_SUFFIX, OVERFLOW, SPOOL

CURSOR = "cursor.json"
LOCK = "forward.lock"
READ_BYTES = 1 << 20  # at most this much of a batch per request
READ_RECORDS = 512
CLAIM_WAIT = 2.0  # seconds: a run holds the spool's lock for one append


class Busy(Exception):
    """Another forwarder holds the lock."""


def batch_names(folder: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    return sorted(n for n in names if n.startswith(BATCH_PREFIX) and n.endswith(BATCH_SUFFIX))


def _wait_lock(fd: int, wait: float) -> bool:
    give_up = time.monotonic() + wait
    while True:
        try:
            os.lockf(fd, os.F_TLOCK, 0)
            return True
        except OSError:
            if time.monotonic() >= give_up:
                return False
            time.sleep(0.002)


class Forwarding:
    """The forwarder's hold on one project's spool (``with Forwarding(folder, wait) as spool: …``)."""

    def __init__(self, folder: str, wait: float = 0.0):
        self.folder = folder
        self.wait = wait
        self.fd = -1
        self.state: dict = {}

    def __enter__(self) -> Forwarding:
        ensure_dir(self.folder)
        self.fd = os.open(os.path.join(self.folder, LOCK), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        if not _wait_lock(self.fd, self.wait):
            os.close(self.fd)
            self.fd = -1
            raise Busy("another forwarder is sending this project's decisions now")
        self.state = read_cursor(self.folder)
        return self

    def __exit__(self, *exc) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    # ## taking over what the runs appended ##

    def claim(self) -> str | None:
        """Rename the spool to a new batch (under the runs' lock); the batch's name, or None when empty."""
        path = os.path.join(self.folder, SPOOL)
        try:
            fd = os.open(path, os.O_RDWR | os.O_CLOEXEC | os.O_NOFOLLOW)
        except FileNotFoundError:
            return None
        try:
            locked = _wait_lock(fd, CLAIM_WAIT)
            if os.fstat(fd).st_size == 0:
                return None
            name = f"{BATCH_PREFIX}{time.time_ns():020d}{BATCH_SUFFIX}"
            last = batch_names(self.folder)
            if last and name <= last[-1]:  # the clock went back: keep the order
                name = f"{last[-1][: -len(BATCH_SUFFIX)]}1{BATCH_SUFFIX}"
            os.rename(path, os.path.join(self.folder, name))
            if not locked:
                self.state["unlocked_claims"] = self.state.get("unlocked_claims", 0) + 1
            return name
        finally:
            os.close(fd)

    def take_overflow(self) -> int:
        """Records the runs could not spool since the last look (counted once)."""
        path = os.path.join(self.folder, OVERFLOW)
        claimed = f"{path}.{time.time_ns()}"
        try:
            os.rename(path, claimed)
        except FileNotFoundError:
            return 0
        try:
            count = os.stat(claimed).st_size
        finally:
            os.unlink(claimed)
        if count:
            self.state["dropped"] = self.state.get("dropped", 0) + count
            self.state["last_drop"] = time.time()
        return count

    # ## positions ##

    def position(self, signal: str) -> tuple[str, int]:
        """Where ``signal`` stands: (batch name, offset), at or after the oldest batch there is."""
        names = batch_names(self.folder)
        found = self.state.get("positions", {}).get(signal)
        if not names:
            return ("", 0)
        if isinstance(found, list) and len(found) == 2 and isinstance(found[0], str) and isinstance(found[1], int):
            if found[0] in names:
                return (found[0], found[1])
            later = [n for n in names if n > found[0]]
            return (later[0], 0) if later else (names[-1], os.path.getsize(os.path.join(self.folder, names[-1])))
        return (names[0], 0)

    def read(self, signal: str) -> tuple[list, int, tuple | None]:
        """The next records ``signal`` has not had accepted: (records, lines that were not records,
        the position after them). One batch at a time, whole lines only."""
        name, offset = self.position(signal)
        if not name:
            return [], 0, None
        path = os.path.join(self.folder, name)
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read(READ_BYTES)
            eof = len(data) < READ_BYTES
            if not eof and b"\n" not in data:  # one line longer than a whole read: not a record of ours
                skipped = len(data)
                while (chunk := f.read(READ_BYTES)) and b"\n" not in chunk:
                    skipped += len(chunk)
                skipped += chunk.index(b"\n") + 1 if chunk else 0
                return [], 1, (name, offset + skipped)
        records: list = []
        bad = used = 0
        while used < len(data) and len(records) < READ_RECORDS:
            end = data.find(b"\n", used)
            if end < 0:
                if eof:  # a claimed batch never grows: a last line without its newline was torn
                    bad += 1
                    used = len(data)
                break
            line = data[used:end]
            used = end + 1
            try:
                record = json.loads(line)
            except ValueError:
                record = None
            if isinstance(record, dict):
                records.append(record)
            else:
                bad += 1
        return records, bad, (name, offset + used)

    def at_end(self, signal: str) -> bool:
        name, offset = self.position(signal)
        names = batch_names(self.folder)
        return not names or (name == names[-1] and offset >= os.path.getsize(os.path.join(self.folder, name)))

    def advance(self, signal: str, position: tuple, sent: int, bad: int) -> None:
        """The receiver accepted everything before ``position`` for ``signal``: keep that, durably."""
        positions = self.state.setdefault("positions", {})
        name, offset = position
        names = batch_names(self.folder)
        if offset >= os.path.getsize(os.path.join(self.folder, name)):
            later = [n for n in names if n > name]
            if later:
                name, offset = later[0], 0
        positions[signal] = [name, offset]
        counts = self.state.setdefault("sent", {})
        counts[signal] = counts.get(signal, 0) + sent
        if bad:
            self.state["bad"] = self.state.get("bad", 0) + bad
        self.state.setdefault("last_ok", {})[signal] = time.time()
        self.save()

    def forget_done(self, signals) -> int:
        """Delete the batches every signal in ``signals`` has passed; how many."""
        names = batch_names(self.folder)
        if not names or not signals:
            return 0
        floor = min(self.position(s) for s in signals)
        done = [n for n in names if n < floor[0]]
        if floor[0] == names[-1] and floor[1] >= _size(self.folder, floor[0]):
            done.append(floor[0])  # every signal has had all of the last batch accepted, and it never grows
        for name in done:
            os.unlink(os.path.join(self.folder, name))
        return len(done)

    def bound(self, limit: int, signals) -> int:
        """Delete the oldest batches unsent while what waits is over ``limit`` bytes; the records dropped
        (those of a deleted batch that some signal had not had accepted)."""
        dropped = 0
        while True:
            names = batch_names(self.folder)
            if not names or sum(_size(self.folder, n) for n in names) + _size(self.folder, SPOOL) <= limit:
                break
            oldest = names[0]
            starts = [offset for name, offset in (self.position(s) for s in signals) if name == oldest]
            if starts or not signals:
                dropped += _lines(os.path.join(self.folder, oldest), min(starts, default=0))
            os.unlink(os.path.join(self.folder, oldest))
        if dropped:
            self.state["dropped"] = self.state.get("dropped", 0) + dropped
            self.state["last_drop"] = time.time()
            self.save()
        return dropped

    def note_error(self, signal: str, message: str) -> None:
        self.state["last_error"] = {"signal": signal, "message": message[:2000], "time": time.time()}
        self.save()

    def clear_error(self) -> None:
        if self.state.pop("last_error", None) is not None:
            self.save()

    def save(self) -> None:
        write_atomically(os.path.join(self.folder, CURSOR), json.dumps(self.state, sort_keys=True).encode())


def _size(folder: str, name: str) -> int:
    try:
        return os.path.getsize(os.path.join(folder, name))
    except OSError:
        return 0


def _lines(path: str, start: int = 0) -> int:
    count = 0
    with open(path, "rb") as f:
        f.seek(start)
        while chunk := f.read(1 << 20):
            count += chunk.count(b"\n")
    return count


def read_cursor(folder: str) -> dict:
    try:
        with open(os.path.join(folder, CURSOR), "rb") as f:
            state = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def waiting(folder: str, signals) -> int:
    """Records not yet accepted for at least one of ``signals`` (what `doctor` and `export` report)."""
    state = read_cursor(folder)
    names = batch_names(folder)
    positions = state.get("positions", {})
    starts = []
    for signal in signals:
        found = positions.get(signal)
        if isinstance(found, list) and len(found) == 2 and found[0] in names:
            starts.append((found[0], found[1]))
        elif isinstance(found, list) and len(found) == 2 and isinstance(found[0], str):
            later = [n for n in names if n > found[0]]
            starts.append((later[0], 0) if later else ("~", 0))
        else:
            starts.append((names[0], 0) if names else ("~", 0))
    floor = min(starts) if starts else ("~", 0)
    count = 0
    for name in names:
        if name > floor[0]:
            count += _lines(os.path.join(folder, name))
        elif name == floor[0]:
            count += _lines(os.path.join(folder, name), floor[1])
    spool = os.path.join(folder, SPOOL)
    if os.path.exists(spool):
        count += _lines(spool)
    return count
