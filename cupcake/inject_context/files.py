"""Reading files that an agent may have tampered with: bounded, regular files only, and (for
project files) never through a symlink that leads outside the project root."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.lean_os import S_ISREG

_READ = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_DIR = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class FileProblem(Exception):
    """Why a file could not be used, in words for the person reading the warning."""


def inside(root: str, relative: str) -> str:
    """The real path of ``root/relative``; ``FileProblem`` when it resolves outside the root."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(os.path.join(real_root, relative))
    if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
        raise FileProblem(f"it leads outside the project root (to {real})")
    return real


def open_inside(root: str, relative: str) -> int:
    """A descriptor for the regular file ``root/relative``, resolved inside the root.

    The symlinks are resolved first and the resolved path checked; it is then opened one directory
    at a time without following any symlink, so a link swapped in after the check fails to open
    instead of leading elsewhere.
    """
    real_root = os.path.realpath(root)
    real = inside(real_root, relative)
    parts = [p for p in real[len(real_root) :].split(os.sep) if p]
    if not parts:
        raise FileProblem("it is the project root, not a file")
    try:
        fd = os.open(real_root, _DIR)
    except OSError as exc:
        raise FileProblem(_reason(exc)) from None
    try:
        for part in parts[:-1]:
            next_fd = os.open(part, _DIR, dir_fd=fd)
            os.close(fd)
            fd = next_fd
        return _regular(os.open(parts[-1], _READ, dir_fd=fd))
    except OSError as exc:
        raise FileProblem(_reason(exc)) from None
    finally:
        os.close(fd)


def open_regular(path: str) -> int:
    """A descriptor for ``path`` when it is a regular file that is not a symlink."""
    try:
        return _regular(os.open(path, _READ))
    except OSError as exc:
        raise FileProblem(_reason(exc)) from None


def _regular(fd: int) -> int:
    if not S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise FileProblem("it is not a regular file")
    return fd


def read_fd(fd: int, limit: int) -> tuple[bytes, bool]:
    """At most ``limit`` bytes of the file (closed afterwards), and whether there was more."""
    try:
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    return data[:limit], len(data) > limit


def _reason(exc: OSError) -> str:
    import errno

    if exc.errno == errno.ENOENT:
        return "it does not exist"
    if exc.errno in (errno.ELOOP, errno.EMLINK):
        return "it is a symlink (refused: it could lead anywhere)"
    if exc.errno == errno.ENOTDIR:
        return "a part of its path is not a directory"
    return exc.strerror or str(exc)
