"""``.cupcake/shadow.log``: where the candidate or an observed policy decided otherwise than the
enforced set. JSON Lines, one line per event that differs, appended in one ``O_APPEND`` write; at
``MAX_BYTES`` the file moves to ``shadow.log.1`` (the previous one falls off), so it stays bounded.

A line: ``time``, ``session``, ``agent``, ``event``, ``tool``, ``input`` (the audit trail's masked
summary), ``enforced`` and ``candidate`` (each ``decision``, ``policy``, ``matched``), ``observed``
(``{policy: what it would do}``), ``unknown`` (what could not be evaluated) and ``ms``."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.project import WORK_DIR

LOG_NAME = "shadow.log"
MAX_BYTES = 5 * 1024 * 1024
_FLAGS = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


def path_of(root: str) -> str:
    return os.path.join(root, WORK_DIR, LOG_NAME)


def append(root: str, line: str) -> None:
    """Append one line (rotating first when the file is full); raises OSError for the caller to report."""
    folder = os.path.join(root, WORK_DIR)
    if os.path.islink(folder):
        raise OSError(f"{WORK_DIR} is a symbolic link; Cupcake does not write through it")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    path = os.path.join(folder, LOG_NAME)
    data = (line + "\n").encode("utf-8", "replace")
    fd = os.open(path, _FLAGS, 0o600)
    try:
        if os.fstat(fd).st_size + len(data) > MAX_BYTES:
            os.close(fd)
            fd = -1
            os.replace(path, path + ".1")
            fd = os.open(path, _FLAGS, 0o600)
        os.write(fd, data)
    finally:
        if fd >= 0:
            os.close(fd)


def read(root: str) -> list[dict]:
    """Every recorded line, oldest first (the rotated file, then the current one); lines that are not
    JSON objects are skipped."""
    import json

    found = []
    base = path_of(root)
    for path in (base + ".1", base):
        try:
            with open(path, "rb") as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            continue
        for raw in lines:
            try:
                value = json.loads(raw)
            except ValueError:
                continue
            if isinstance(value, dict):
                found.append(value)
    return found
