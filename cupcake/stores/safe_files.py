"""Writing under ``.cupcake/`` without ever following a link the agent planted.

- ``.cupcake`` itself, and every folder Cupcake writes below it, must be a real directory: a symbolic
  link there (``ln -s /elsewhere .cupcake``) is refused with ``UnsafePath``, never followed.
- Temporary files get a random name and are created exclusively (``O_CREAT|O_EXCL|O_NOFOLLOW``): a
  symlink or a hard link planted at a guessable name is never opened, so never written through.
"""

from __future__ import annotations

import errno

from cupcake import lean_os as os
from cupcake.lean_os import S_ISDIR, S_ISLNK

DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
WORK_DIR_NAME = ".cupcake"


class UnsafePath(OSError):
    """A path Cupcake would write through is a symbolic link (or not a directory): refused."""


def _refuse(path: str, what: str) -> UnsafePath:
    shown = path[path.rfind(WORK_DIR_NAME) :] if WORK_DIR_NAME in path else path
    exc = UnsafePath(errno.ELOOP, f"{shown} is {what}; Cupcake does not write through it")
    return exc


def checked_dirs(directory: str) -> list[str]:
    """``directory`` and its ancestors up to the nearest ``.cupcake`` (or just ``directory``)."""
    found = []
    path = os.path.abspath(directory)
    while True:
        found.append(path)
        if os.path.basename(path) == WORK_DIR_NAME:
            break
        parent = os.path.dirname(path)
        if parent == path or WORK_DIR_NAME not in parent.split(os.sep):
            break
        path = parent
    return found[::-1]


def ensure_dir(directory: str, create: bool = True) -> None:
    """Make sure ``directory`` (and each folder up to ``.cupcake``) is a real directory, creating the
    missing ones (mode 0700). Raises ``UnsafePath`` for a symlink or a non-directory on the way."""
    for path in checked_dirs(directory):
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            if not create:
                raise
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                pass
            st = os.lstat(path)
        if S_ISLNK(st.st_mode):
            raise _refuse(path, "a symbolic link")
        if not S_ISDIR(st.st_mode):
            raise _refuse(path, "not a directory")


def create_temp(dir_fd: int, base: str) -> tuple[int, str]:
    """A new, empty file ``<base>.<random>.tmp`` in ``dir_fd``, opened for writing: ``(fd, name)``."""
    for _ in range(8):
        name = f"{base}.{os.urandom(8).hex()}.tmp"
        try:
            return os.open(name, _TEMP_FLAGS, 0o600, dir_fd=dir_fd), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"could not create a temporary file for {base}")
