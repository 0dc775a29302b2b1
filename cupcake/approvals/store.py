"""``.cupcake/approvals.json``: the codes offered (as keyed hashes) and the grants a person gave; and
``.cupcake/approval-offers.jsonl``, where a blocked call adds its code.

A blocked call appends one line (a sealed pending entry) to the offers file, under ``approvals.lock``,
in one ``O_APPEND`` write, and looks for a grant by reading the store without the lock (both in
``files``: a hook run imports this module only to use up a "once" grant). Everything else reads the
store under the lock and folds the offers into it (a line that is not a whole JSON object is dropped, a
pending entry is checked by its seal wherever it is used, and a code already used or withdrawn is never
taken back from a line written again), and on ``save()`` writes the store whole, to a temporary file
renamed over, then empties the offers file. The offers file is bounded: past ``MAX_OFFERS_BYTES`` the next offer folds
them into the store (the cold path), and a reader takes at most the newest ``OFFERS_READ`` bytes of it.
Nothing is read or written through a symbolic link or from anything but a regular file.

Every entry carries a seal (a keyed MAC under the approvals' key): an entry written by anything
without the per-user secret is ignored, so writing either file is not enough to grant anything. The
file stays small: expired codes and used or expired grants are dropped, and each list is capped.

    {"v": 1,
     "pending": [{"id", "code" (keyed hash), "call" (fingerprint), "rule", "event", "tool", "input",
                  "agent", "session", "created", "expires", "seal"}],
     "grants":  [{"id", "call", "rule", "event", "tool", "input", "agent", "scope" (once, until,
                  always), "until", "reason", "by", "at", "seal"}],
     "wrong":   [times of wrong codes, the last ``WINDOW`` seconds],
     "used":    [[keyed hash of a code used or withdrawn, when], the last ``USED_SECONDS``]}
"""

from __future__ import annotations

import time

from cupcake import lean_os as os
from cupcake import speedups
from cupcake.approvals import STORE_NAME
from cupcake.approvals.codes import live, sealed, trusted
from cupcake.approvals.files import FLAGS, OFFERS_NAME, StoreError, folder, lock, offers_of, read_store, store_of, why
from cupcake.lean_os import S_ISREG
from cupcake.project import WORK_DIR

OFFERS_READ = 256 << 10  # what a reader takes of a larger offers file (the newest; older lines are dropped)
USED_SECONDS = 3600  # longer than any code lives (15 minutes): a used code's line written again stays dead
MAX_USED = 500
MAX_PENDING = 100
MAX_GRANTS = 500


def exists(root: str) -> bool:
    return os.path.isfile(store_of(root)) or os.path.isfile(offers_of(root))


def fold_offer(root: str, key: bytes, entry: dict) -> None:
    """A blocked call's pending entry when the offers file is full (``files.add_offer`` said no): folded, with
    the file's offers, into the store, and the file emptied (the cold path)."""
    with Locked(root, key, verify=()) as held:  # what it carries is checked on use
        held.data["pending"].append(sealed(key, entry, "pending"))
        held.save()


class Locked:
    """The store, read under its lock (``with Locked(root, key) as store``); ``save()`` writes it back.
    Entries of the lists in ``verify`` whose seal does not hold are left out (``dropped`` counts them).
    A list not verified (a blocked call that folds its code in when the offers file is full) is carried
    as read, its live entries kept: checking a seal costs a JSON dump and a MAC per entry, a hundred
    pending codes a few milliseconds of a blocked call, and every reader that uses an entry checks it."""

    def __init__(self, root: str, key: bytes, create: bool = True, verify=("pending", "grants")):
        self.root = root
        self.key = key
        self.create = create
        self.verify = verify
        self.fd = -1
        self.data: dict = {"v": 1, "pending": [], "grants": [], "wrong": [], "used": []}
        self.dropped = 0

    def __enter__(self) -> Locked:
        self.fd = lock(folder(self.root, self.create))
        try:
            self._read()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # releases the lock
            self.fd = -1

    def _read(self) -> None:
        data = read_store(self.root)  # none yet: the offers file may hold codes all the same
        try:
            value = speedups.json_loads(data) if data.strip() else {}
        except ValueError:
            value = {}
            self.dropped += 1
        if not isinstance(value, dict):
            value = {}
        now = time.time()
        given = value.get("used")
        self.data["used"] = [
            u for u in (given if isinstance(given, list) else []) if _used_entry(u) and now - u[1] < USED_SECONDS
        ][-MAX_USED:]
        used = {u[0] for u in self.data["used"]}
        for name in ("pending", "grants"):
            given = value.get(name)
            entries: list = given if isinstance(given, list) else []
            if name == "pending":
                entries = self._with_offers(entries, used)
            if name in self.verify:
                kept = [e for e in entries if trusted(self.key, e, name)]
                self.dropped += len(entries) - len(kept)
            else:
                kept = [e for e in entries if isinstance(e, dict)]
            self.data[name] = [e for e in kept if live(e, now)]
        given = value.get("wrong")
        wrong: list = given if isinstance(given, list) else []
        self.data["wrong"] = [t for t in wrong if isinstance(t, (int, float))][-64:]

    def _with_offers(self, pending: list, used: set) -> list:
        """The store's pending entries, then the offers file's, once each (by code) and none already used."""
        try:
            fd = os.open(offers_of(self.root), os.O_RDONLY | os.O_NONBLOCK | FLAGS)
        except FileNotFoundError:
            lines: list = []
        except OSError as exc:
            raise StoreError(f"cannot read {WORK_DIR}/{OFFERS_NAME}: {why(exc)}") from None
        else:
            try:
                st = os.fstat(fd)
                if not S_ISREG(st.st_mode):
                    raise StoreError(f"{WORK_DIR}/{OFFERS_NAME} is not a regular file (remove it)")
                start = max(0, st.st_size - OFFERS_READ)
                lines = os.pread(fd, OFFERS_READ, start).split(b"\n")[1 if start else 0 :]  # a cut first line
            finally:
                os.close(fd)
        entries = [e for e in pending if isinstance(e, dict)]
        for line in lines:
            if line.strip():
                try:
                    entries.append(speedups.json_loads(line))
                except ValueError:
                    self.dropped += 1
        kept, seen = [], set()
        for entry in entries:
            code = entry.get("code") if isinstance(entry, dict) else None
            if isinstance(code, str) and code not in seen and code not in used:
                seen.add(code)
                kept.append(entry)
        return kept

    def use(self, entries) -> None:
        """Mark these pending codes used (or withdrawn): a line that offers one again is not taken back."""
        now = time.time()
        self.data["used"] = (self.data["used"] + [[e.get("code"), now] for e in entries if isinstance(e, dict)])[
            -MAX_USED:
        ]

    def save(self) -> None:
        self.data["pending"] = self.data["pending"][-MAX_PENDING:]
        self.data["grants"] = self.data["grants"][-MAX_GRANTS:]
        folder = os.path.join(self.root, WORK_DIR)
        tmp = os.path.join(folder, f".{STORE_NAME}.{os.getpid()}.{os.urandom(4).hex()}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | FLAGS, 0o600)
            try:
                os.write(fd, speedups.json_dumps(self.data).encode("utf-8", "surrogatepass"))
            finally:
                os.close(fd)
            os.replace(tmp, store_of(self.root))
        except OSError as exc:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise StoreError(f"cannot write {WORK_DIR}/{STORE_NAME}: {why(exc)}") from None
        try:  # folded into the store just written: the offers file starts again
            os.close(os.open(offers_of(self.root), os.O_WRONLY | os.O_TRUNC | os.O_NONBLOCK | FLAGS))
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StoreError(f"cannot empty {WORK_DIR}/{OFFERS_NAME}: {why(exc)}") from None


def _used_entry(value) -> bool:
    return (
        isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], (int, float))
    )
