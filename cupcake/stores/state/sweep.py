"""Remove session state nobody has touched for ``[settings] state_ttl_days`` (default 7).

Cheap by design: a stamp file (``.cupcake/state/.last-sweep``) makes the directory scan happen at
most once a day. Only regular files of Cupcake's own kinds directly in ``.cupcake/state/`` are
removed, through the directory's descriptor: nothing outside it is ever deleted."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.stores.state.store import INDEX_SUFFIX, LOG_SUFFIX

STAMP = ".last-sweep"
EVERY = 86400.0  # seconds between sweeps
DEFAULT_TTL_DAYS = 7
_KINDS = (LOG_SUFFIX, INDEX_SUFFIX, ".tmp", ".stops")  # .stops: the Stop loop cap's counts


def ttl_seconds(settings: dict) -> float:
    days = settings.get("state_ttl_days", DEFAULT_TTL_DAYS)
    if not isinstance(days, (int, float)) or isinstance(days, bool) or days <= 0:
        days = DEFAULT_TTL_DAYS
    return float(days) * 86400.0


def due(dir_fd: int, now: float) -> bool:
    try:
        st = os.stat(STAMP, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return True
    return not (0 <= now - st.st_mtime < EVERY)


def sweep(dir_fd: int, ttl: float, now: float, keep: str | None = None) -> list:
    """Remove stale state files (never ``keep``'s); returns the names removed. Marks the sweep first,
    so that runs in parallel do not all scan."""
    fd = os.open(STAMP, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
    try:
        os.utime(fd, (now, now))
    finally:
        os.close(fd)
    removed = []
    with os.scandir(dir_fd) as entries:
        for entry in entries:
            name = entry.name
            if not name.endswith(_KINDS) or name.startswith("."):
                continue
            if keep is not None and name.startswith(keep + "."):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if (st.st_mode & 0o170000) != 0o100000:  # regular files only
                continue
            if now - st.st_mtime > ttl:
                try:
                    os.unlink(name, dir_fd=dir_fd)
                    removed.append(name)
                except FileNotFoundError:
                    pass
    return removed
