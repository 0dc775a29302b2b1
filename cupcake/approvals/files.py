"""The approvals' files as a hook run uses them (hot: a deny imports this module, never the store):
the lock, the offers file a blocked call appends its code to, and the store read for a grant.

**The append.** One ``O_APPEND`` write of a whole line, so two blocked calls at once never interleave.
It still takes the lock: whatever folds the offers into the store (``store.Locked``, then ``save()``)
reads this file and empties it afterwards, and a line appended between that read and that emptying
would be lost (the person would be shown a code that no file keeps). The lock is a POSIX record lock
(``os.lockf``: no ``fcntl`` import, a shared library of its own) on a file opened for writing, so an
agent the operating system keeps off ``.cupcake/`` cannot take it. A record lock belongs to the
process and goes with the first ``close`` of any descriptor of that file: only ``lock`` opens
``approvals.lock``, and no process holds it twice.

**The read.** Looking for a grant takes no lock: the store is only ever replaced whole (``save()``
writes a temporary file and renames it over), so a reader sees one version or the other, never half."""

from __future__ import annotations

import time

from cupcake import lean_os as os
from cupcake import speedups
from cupcake.approvals import STORE_NAME
from cupcake.approvals.codes import sealed
from cupcake.errors import CupcakeError
from cupcake.lean_os import S_ISREG
from cupcake.project import WORK_DIR

LOCK_NAME = "approvals.lock"
OFFERS_NAME = "approval-offers.jsonl"
MAX_OFFERS_BYTES = 64 << 10  # about 150 offers; the next one folds them into the store
LOCK_WAIT = 1.0
MAX_BYTES = 1 << 20  # of the store
FLAGS = os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


class StoreError(CupcakeError):
    """The store cannot be read or written; the message says why, for the person."""


def offers_of(root: str) -> str:
    return os.path.join(root, WORK_DIR, OFFERS_NAME)


def store_of(root: str) -> str:
    return os.path.join(root, WORK_DIR, STORE_NAME)


def read_store(root: str) -> bytes:
    """The store's bytes (empty when there is none yet), never through a link; ``StoreError`` when it
    cannot be read or is larger than ``MAX_BYTES``."""
    try:
        fd = os.open(store_of(root), os.O_RDONLY | os.O_NONBLOCK | FLAGS)
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise StoreError(f"cannot read {WORK_DIR}/{STORE_NAME}: {why(exc)}") from None
    try:
        data = os.read(fd, MAX_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_BYTES:
        raise StoreError(f"{WORK_DIR}/{STORE_NAME} is larger than {MAX_BYTES >> 20} MiB: it was not written by Cupcake")
    return data


def folder(root: str, create: bool) -> str:
    path = os.path.join(root, WORK_DIR)
    if os.path.islink(path):
        raise StoreError(f"{WORK_DIR} is a symbolic link; Cupcake does not read or write through it")
    if create:
        os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def lock(where: str) -> int:
    """The store's lock in the folder ``where``, held; the wait is bounded. Closing the fd releases it."""
    try:
        fd = os.open(os.path.join(where, LOCK_NAME), os.O_RDWR | os.O_CREAT | FLAGS, 0o600)
    except OSError as exc:
        raise StoreError(f"cannot open {WORK_DIR}/{LOCK_NAME}: {why(exc)}") from None
    give_up = time.monotonic() + LOCK_WAIT
    while True:
        try:
            os.lockf(fd, os.F_TLOCK, 0)
            return fd
        except (BlockingIOError, PermissionError):  # EAGAIN or EACCES: another process holds it
            if time.monotonic() >= give_up:
                os.close(fd)
                raise StoreError(f"{WORK_DIR}/{LOCK_NAME} was held by another process for too long") from None
            time.sleep(0.002)


def add_offer(root: str, key: bytes, entry: dict) -> bool:
    """A blocked call's pending ``entry``, sealed, appended as one line (after a newline: a line cut short
    before it does not swallow it); False (nothing written) when it would take the file past
    ``MAX_OFFERS_BYTES`` (then the caller folds it into the store: ``store.fold_offer``)."""
    line = b"\n" + speedups.json_dumps(sealed(key, entry, "pending")).encode("utf-8", "surrogatepass") + b"\n"
    held = lock(folder(root, True))
    try:
        try:
            fd = os.open(offers_of(root), os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | FLAGS, 0o600)
        except OSError as exc:
            raise StoreError(f"cannot write {WORK_DIR}/{OFFERS_NAME}: {why(exc)}") from None
        try:
            st = os.fstat(fd)
            if not S_ISREG(st.st_mode):
                raise StoreError(f"{WORK_DIR}/{OFFERS_NAME} is not a regular file (remove it)")
            if st.st_size + len(line) > MAX_OFFERS_BYTES:
                return False
            if os.write(fd, line) != len(line):
                raise StoreError(f"cannot write {WORK_DIR}/{OFFERS_NAME}: the disk is full")
            return True
        finally:
            os.close(fd)
    finally:
        os.close(held)


def why(exc: OSError) -> str:
    from errno import EACCES, EPERM, EROFS  # only when something failed

    if exc.errno in (EROFS, EACCES, EPERM):
        return f"{exc.strerror} (it is read-only here: a person must run this outside the agent's sandbox)"
    return str(exc.strerror or exc)
