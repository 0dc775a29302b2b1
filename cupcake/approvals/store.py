"""``.cupcake/approvals.json``: the codes offered (as keyed hashes) and the grants a person gave.

Read and rewritten whole under ``approvals.lock`` (``flock``; the wait is bounded), written to a
temporary file and renamed over, never through a symbolic link. Every entry carries a seal (a keyed
MAC under the approvals' key): an entry written by anything without the per-user secret is ignored,
so writing the file is not enough to grant anything. The file stays small: expired codes and used
or expired grants are dropped, and each list is capped.

    {"v": 1,
     "pending": [{"id", "code" (keyed hash), "call" (fingerprint), "rule", "event", "tool", "input",
                  "agent", "session", "created", "expires", "seal"}],
     "grants":  [{"id", "call", "rule", "event", "tool", "input", "agent", "scope" (once, until,
                  always), "until", "reason", "by", "at", "seal"}],
     "wrong":   [times of wrong codes, the last ``WINDOW`` seconds]}
"""

from __future__ import annotations

import errno
import fcntl
import os
import time

from cupcake import speedups
from cupcake.approvals import STORE_NAME
from cupcake.approvals.codes import seal
from cupcake.errors import CupcakeError
from cupcake.project import WORK_DIR

LOCK_NAME = "approvals.lock"
LOCK_WAIT = 1.0
MAX_BYTES = 1 << 20
MAX_PENDING = 100
MAX_GRANTS = 500
_FLAGS = os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


class StoreError(CupcakeError):
    """The store cannot be read or written; the message says why, for the person."""


def path_of(root: str) -> str:
    return os.path.join(root, WORK_DIR, STORE_NAME)


def exists(root: str) -> bool:
    return os.path.isfile(path_of(root))


def sealed(key: bytes, entry: dict, kind: str) -> dict:
    """``entry`` with its seal; ``kind`` ("pending" or "grants", the list it belongs to) is sealed with it,
    so an offered code moved among the grants is no grant."""
    body = {k: v for k, v in entry.items() if k != "seal"}
    return dict(body, seal=seal(key, kind + ":" + speedups.json_dumps(_ordered(body))))


def trusted(key: bytes, entry, kind: str) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("seal"), str):
        return False
    body = {k: v for k, v in entry.items() if k != "seal"}
    expected = seal(key, kind + ":" + speedups.json_dumps(_ordered(body)))
    return _same(expected, entry["seal"])


def _same(a: str, b: str) -> bool:
    """Constant-time string comparison (the builtin one, without importing ``hmac``)."""
    from _operator import _compare_digest

    return _compare_digest(a.encode(), b.encode())


def _ordered(value):
    if isinstance(value, dict):
        return {k: _ordered(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


class Locked:
    """The store, read under its lock (``with Locked(root, key) as store``); ``save()`` writes it back.
    Entries of the lists in ``verify`` whose seal does not hold are left out (``dropped`` counts them).
    A list not verified (a hook call that only adds a code, or only looks for a grant) is carried as
    read, its live entries kept: checking a seal costs a JSON dump and a MAC per entry, a hundred
    pending codes a few milliseconds of a blocked call, and every reader that uses an entry checks it."""

    def __init__(self, root: str, key: bytes, create: bool = True, verify=("pending", "grants")):
        self.root = root
        self.key = key
        self.create = create
        self.verify = verify
        self.fd = -1
        self.data: dict = {"v": 1, "pending": [], "grants": [], "wrong": []}
        self.dropped = 0

    def __enter__(self) -> Locked:
        folder = os.path.join(self.root, WORK_DIR)
        if os.path.islink(folder):
            raise StoreError(f"{WORK_DIR} is a symbolic link; Cupcake does not read or write through it")
        if self.create:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        try:
            self.fd = os.open(os.path.join(folder, LOCK_NAME), os.O_RDWR | os.O_CREAT | _FLAGS, 0o600)
        except OSError as exc:
            raise StoreError(f"cannot open {WORK_DIR}/{LOCK_NAME}: {_why(exc)}") from None
        give_up = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= give_up:
                    os.close(self.fd)
                    raise StoreError(f"{WORK_DIR}/{LOCK_NAME} was held by another process for too long") from None
                time.sleep(0.002)
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
        try:
            fd = os.open(path_of(self.root), os.O_RDONLY | os.O_NONBLOCK | _FLAGS)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StoreError(f"cannot read {WORK_DIR}/{STORE_NAME}: {_why(exc)}") from None
        try:
            data = os.read(fd, MAX_BYTES + 1)
        finally:
            os.close(fd)
        if len(data) > MAX_BYTES:
            raise StoreError(
                f"{WORK_DIR}/{STORE_NAME} is larger than {MAX_BYTES >> 20} MiB: it was not written by Cupcake"
            )
        try:
            value = speedups.json_loads(data) if data.strip() else {}
        except ValueError:
            value = {}
            self.dropped += 1
        if not isinstance(value, dict):
            value = {}
        now = time.time()
        for name in ("pending", "grants"):
            given = value.get(name)
            entries: list = given if isinstance(given, list) else []
            if name in self.verify:
                kept = [e for e in entries if trusted(self.key, e, name)]
                self.dropped += len(entries) - len(kept)
            else:
                kept = [e for e in entries if isinstance(e, dict)]
            self.data[name] = [e for e in kept if _live(e, now)]
        given = value.get("wrong")
        wrong: list = given if isinstance(given, list) else []
        self.data["wrong"] = [t for t in wrong if isinstance(t, (int, float))][-64:]

    def save(self) -> None:
        self.data["pending"] = self.data["pending"][-MAX_PENDING:]
        self.data["grants"] = self.data["grants"][-MAX_GRANTS:]
        folder = os.path.join(self.root, WORK_DIR)
        tmp = os.path.join(folder, f".{STORE_NAME}.{os.getpid()}.{os.urandom(4).hex()}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _FLAGS, 0o600)
            try:
                os.write(fd, speedups.json_dumps(self.data).encode("utf-8", "surrogatepass"))
            finally:
                os.close(fd)
            os.replace(tmp, path_of(self.root))
        except OSError as exc:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise StoreError(f"cannot write {WORK_DIR}/{STORE_NAME}: {_why(exc)}") from None


def _live(entry: dict, now: float) -> bool:
    """A pending code not yet expired; a grant that is not past its time."""
    until = entry.get("expires", entry.get("until"))
    return not isinstance(until, (int, float)) or until > now


def _why(exc: OSError) -> str:
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"{exc.strerror} (it is read-only here: a person must run this outside the agent's sandbox)"
    return str(exc.strerror or exc)
