"""The spool a run appends its decision to: ``.cupcake/telemetry/spool.jsonl``, one JSON line per hook call.

This is all a run does for telemetry (about 10 µs: open, lock, check, one ``O_APPEND`` write, close), so
it uses nothing but ``os``. The forwarder takes the file over by renaming it to ``batch.<ns>.jsonl`` while
holding the same lock (``claim``): a run that opened the old file before the rename sees, once it has the
lock, that the name now stands for another file, and appends to the new one. So no line lands in a batch
after it was claimed, and none is lost.

The lock is a POSIX record lock (``os.lockf``: no ``fcntl`` import), which needs a file opened for
writing: an agent kept off ``.cupcake/`` by the operating system cannot take it. A run waits for it only
briefly (the forwarder holds it for one rename); if it is still held, the line is appended without it.

Bounded: when the spool has grown past its cap (the forwarder cannot send and cannot keep up), the line
is not written and one byte is appended to ``overflow`` instead, so the forwarder can count what was
dropped and `doctor` can say so.
"""

from __future__ import annotations

import os
import time

DIR = "telemetry"
SPOOL = "spool.jsonl"
OVERFLOW = "overflow"
BATCH_PREFIX = "batch."
BATCH_SUFFIX = ".jsonl"

_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
LOCK_TRIES = 20  # about 2 ms in all: the forwarder holds the lock for one rename
_PAUSE = 0.0001


def directory(workdir: str) -> str:
    """``.cupcake/telemetry`` of a project's work directory."""
    return os.path.join(workdir, DIR)


def _lock(fd: int) -> bool:
    for _ in range(LOCK_TRIES):
        try:
            os.lockf(fd, os.F_TLOCK, 0)
            return True
        except OSError:
            time.sleep(_PAUSE)
    return False


def append_locked(path: str, data: bytes, cap: int | None = None) -> bool:
    """Append ``data`` to ``path`` (created 0600) under its lock, unless that would take it past ``cap``
    bytes; False when it did not fit. A name that was claimed (renamed) meanwhile is opened again."""
    for _ in range(4):
        fd = os.open(path, _APPEND, 0o600)
        try:
            locked = _lock(fd)
            st = os.fstat(fd)
            if locked:
                try:
                    if os.stat(path).st_ino != st.st_ino:
                        continue  # claimed while we waited: append to the file that has the name now
                except FileNotFoundError:
                    continue
            if cap is not None and st.st_size + len(data) > cap:
                return False
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            return True
        finally:
            os.close(fd)  # releases the lock
    raise OSError(f"{os.path.basename(path)} kept being renamed while Cupcake appended to it")


def append(workdir: str, line: bytes, cap: int) -> bool:
    """Append one record (a JSON line ending in a newline) to the project's spool; False when the spool
    is full (the record was counted in ``overflow`` instead). OSError when the folder cannot be written."""
    from cupcake.stores.safe_files import ensure_dir

    folder = directory(workdir)
    ensure_dir(folder)  # two lstat calls; refuses a symbolic link anywhere up to .cupcake
    written = append_locked(os.path.join(folder, SPOOL), line, cap)
    if not written:
        append_locked(os.path.join(folder, OVERFLOW), b"x")
    return written
