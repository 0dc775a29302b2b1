"""Append one line to ``.cupcake/audit.log``: under an exclusive lock, in one ``O_APPEND`` write,
chained to the previous line, rotating the file first when it would grow past its size.

Parallel hook processes serialise on ``.cupcake/audit.lock`` (``flock``: the kernel releases it
when a process dies). Holding the lock, a writer reads the last line (of the previous file,
right after a rotation), so ``seq`` and ``prev`` continue across files; a write that fails half
way is rolled back, so no partial line is left behind."""

from __future__ import annotations

import errno
import fcntl
import os
import time

from cupcake.errors import CupcakeError
from cupcake.stores.audit.chain import GENESIS, SCHEMA_VERSION, line_hash, seal, seq_of

LOG_NAME = "audit.log"
LOCK_NAME = "audit.lock"
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_KEEP = 5
LOCK_WAIT = 10.0  # seconds a run waits for the lock before giving up (with a warning); it is held for microseconds

_FLAGS = os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
_TAIL = 8192


class AuditWriteError(CupcakeError):
    """The line could not be written; the message is written for the user."""


def rotated(path: str, n: int) -> str:
    return f"{path}.{n}"


def _lock(fd: int, wait: float) -> None:
    give_up = time.monotonic() + wait
    pause = 0.0005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= give_up:
                raise AuditWriteError(
                    f"could not write the audit log: {LOCK_NAME} was held by another process for more than "
                    f"{wait:g} s, so this event is missing from the trail"
                ) from None
            time.sleep(pause)
            pause = min(pause * 2, 0.005)


def last_line(fd: int, size: int):
    """(the file's last line without its newline, whether the file ends with a newline)."""
    if size == 0:
        return None, True
    chunk = _TAIL
    while True:
        start = max(0, size - chunk)
        data = os.pread(fd, size - start, start)
        complete = data.endswith(b"\n")
        body = data[:-1] if complete else data
        cut = body.rfind(b"\n")
        if cut >= 0:
            return body[cut + 1 :], complete
        if start == 0:
            return body, complete
        chunk *= 4


def _previous_file_tail(path: str):
    """The last line of ``audit.log.1``: the chain goes on from there after a rotation."""
    try:
        fd = os.open(rotated(path, 1), os.O_RDONLY | _FLAGS)
    except OSError:
        return None
    try:
        return last_line(fd, os.fstat(fd).st_size)[0]
    finally:
        os.close(fd)


def _rotate(path: str, keep: int) -> None:
    """audit.log → .1 → .2 … → .keep (the oldest falls off)."""
    for n in range(keep - 1, 0, -1):
        try:
            os.replace(rotated(path, n), rotated(path, n + 1))
        except FileNotFoundError:
            pass
    os.replace(path, rotated(path, 1))


def _open_log(path: str) -> int:
    return os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | _FLAGS, 0o600)


def _describe(exc: OSError) -> str:
    if getattr(exc, "errno", None) == errno.ELOOP:  # O_NOFOLLOW met a symbolic link
        return "it is a symbolic link, and Cupcake does not write through one"
    return str(exc.strerror or exc)


def append(
    workdir: str, body: str, max_bytes: int = DEFAULT_MAX_BYTES, keep: int = DEFAULT_KEEP, wait: float = LOCK_WAIT
) -> int:
    """Append the record ``body`` (a JSON object's text, as ``speedups.json_dumps`` gives it) and return its seq."""
    path = os.path.join(workdir, LOG_NAME)
    shown = os.path.join(os.path.basename(workdir), LOG_NAME)
    try:
        os.makedirs(workdir, exist_ok=True)
        lock_fd = os.open(os.path.join(workdir, LOCK_NAME), os.O_RDWR | os.O_CREAT | _FLAGS, 0o600)
    except OSError as exc:
        raise AuditWriteError(f"could not write the audit log {shown}: {_describe(exc)}") from None
    try:
        _lock(lock_fd, wait)
        return _append_locked(path, shown, body, max_bytes, keep)
    finally:
        os.close(lock_fd)  # releases the lock


def _append_locked(path: str, shown: str, body: str, max_bytes: int, keep: int) -> int:
    fd = -1
    try:
        fd = _open_log(path)
        size = os.fstat(fd).st_size
        previous, complete = last_line(fd, size)
        if previous is None:
            previous = _previous_file_tail(path)
        seq = (seq_of(previous) or 0) + 1 if previous is not None else 1
        prev = line_hash(previous) if previous is not None else GENESIS
        unsealed = f'{{"v":{SCHEMA_VERSION},"seq":{seq},"prev":"{prev}",{body[1:-1]}'.encode("utf-8", "replace")
        line = seal(unsealed) + b"\n"
        raw = line if complete else b"\n" + line
        if max_bytes and size and size + len(raw) > max_bytes:
            os.close(fd)
            fd = -1
            _rotate(path, max(1, keep))
            fd = _open_log(path)
            size, raw = 0, line
        try:
            written = os.write(fd, raw)
            if written != len(raw):
                raise OSError(28, "short write (is the disk full?)")
        except OSError:
            try:
                os.ftruncate(fd, size)  # we hold the lock: nobody appended since
            except OSError:
                pass
            raise
        return seq
    except OSError as exc:
        raise AuditWriteError(
            f"could not write the audit log {shown}: {_describe(exc)}; this event is missing from the trail"
        ) from None
    finally:
        if fd >= 0:
            os.close(fd)
