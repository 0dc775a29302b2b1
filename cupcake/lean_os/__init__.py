"""The ``os`` calls of a hook call, taken from ``posix`` (the C module the interpreter loads at start-up)
instead of ``os``. With ``-S`` (as the launcher starts Python) nothing imports ``os`` before Cupcake
does, and importing it costs about 1.1 ms of every hook call (``os`` builds ``os.environ`` on
``_collections_abc``, whose thirty abstract classes alone take 0.6 ms): a tenth of the interpreter's floor.

The names are ``os``'s and so is every answer: the functions below are ``posix``'s own (``os`` re-exports
them), ``path`` is ``os.path`` ported line for line (``cupcake/lean_os/path.py``), ``environ`` reads the
same live table ``os.environ`` writes, and the rare calls (``walk``) import ``os`` when made. A module of
the hot path imports ``from cupcake import lean_os as os``; ``tests/lean_os/`` compares every function
with ``os``'s on generated input, and checks that no budgeted hook call imports ``os``."""

from __future__ import annotations

import builtins
from posix import (
    F_OK,
    F_TLOCK,
    O_APPEND,
    O_CLOEXEC,
    O_CREAT,
    O_DIRECTORY,
    O_EXCL,
    O_NOFOLLOW,
    O_NONBLOCK,
    O_RDONLY,
    O_RDWR,
    O_TRUNC,
    O_WRONLY,
    POSIX_SPAWN_CLOSE,
    POSIX_SPAWN_DUP2,
    POSIX_SPAWN_OPEN,
    R_OK,
    W_OK,
    X_OK,
    _exit,
    access,
    chmod,
    close,
    dup,
    dup2,
    fchmod,
    fspath,
    fstat,
    fsync,
    ftruncate,
    getcwd,
    getpid,
    getuid,
    listdir,
    lockf,
    lstat,
    mkdir,
    open,
    posix_spawn,
    pread,
    pwrite,
    read,
    readlink,
    rename,
    replace,
    scandir,
    stat,
    umask,
    unlink,
    urandom,
    utime,
    write,
)

try:  # stat's own tests, from the C module it takes them from (`stat` itself is one import more)
    from _stat import S_ISDIR, S_ISLNK, S_ISREG
except ImportError:  # pragma: no cover - an interpreter without it
    from stat import S_ISDIR, S_ISLNK, S_ISREG

from cupcake.lean_os import path
from cupcake.lean_os.variables import environ

sep = "/"
devnull = "/dev/null"

__all__ = [
    "F_OK", "F_TLOCK", "O_APPEND", "O_CLOEXEC", "O_CREAT", "O_DIRECTORY", "O_EXCL", "O_NOFOLLOW", "O_NONBLOCK",
    "O_RDONLY", "O_RDWR", "O_TRUNC", "O_WRONLY", "POSIX_SPAWN_CLOSE", "POSIX_SPAWN_DUP2", "POSIX_SPAWN_OPEN",
    "R_OK", "S_ISDIR", "S_ISLNK", "S_ISREG", "W_OK", "X_OK", "access", "chmod", "close", "devnull", "dup", "dup2",
    "environ", "_exit", "fchmod", "fdopen", "fspath", "fstat", "fsync", "ftruncate", "getcwd", "getpid", "getuid",
    "listdir", "lockf", "lstat", "makedirs", "mkdir", "open", "path", "posix_spawn", "pread", "pwrite", "read",
    "readlink", "rename", "replace", "scandir", "sep", "stat", "umask", "unlink", "urandom", "utime", "walk",
    "write",
]  # fmt: skip


def makedirs(name: str, mode: int = 0o777, exist_ok: bool = False) -> None:
    """``os.makedirs``: ``name`` and every missing folder above it."""
    head, tail = path.split(name)
    if not tail:
        head, tail = path.split(head)
    if head and tail and not path.exists(head):
        try:
            makedirs(head, exist_ok=exist_ok)
        except FileExistsError:  # made by someone else meanwhile
            pass
        if tail == ".":
            return
    try:
        mkdir(name, mode)
    except OSError:
        if not exist_ok or not path.isdir(name):
            raise


def fdopen(fd: int, *args, **kwargs):
    """``os.fdopen``: a file object on an open descriptor."""
    if not isinstance(fd, int):
        raise TypeError(f"invalid fd type ({type(fd)}, expected integer)")
    return builtins.open(fd, *args, **kwargs)  # (open, here, is posix's)


def walk(top: str, *args, **kwargs):
    """``os.walk`` itself (rare on a hook call: the real module is imported then)."""
    import os

    return os.walk(top, *args, **kwargs)
