"""Saving approved policy files: the file replaced is kept as a backup first, and each write goes
through Cupcake's one atomic writer, so an interrupted save leaves the old file or the new one."""

from __future__ import annotations

import os
import shutil


class SaveError(Exception):
    pass


def backup_name(path: str) -> str:
    """``<path>.bak``, or ``.bak.1``, ``.bak.2``… when that is taken: a backup is never overwritten."""
    candidate = path + ".bak"
    number = 0
    while os.path.lexists(candidate):
        number += 1
        candidate = f"{path}.bak.{number}"
    return candidate


def save(path: str, content: bytes) -> str | None:
    """Write ``content`` to ``path``; the backup's path when a file was there before."""
    from cupcake.stores.atomic_write import mode_of, write_atomically

    backup = None
    try:
        if os.path.lexists(path):
            backup = backup_name(path)
            shutil.copy2(path, backup)
        write_atomically(path, content, mode_of(backup or path), durable=True)
    except OSError as exc:
        raise SaveError(f"cannot write {path}: {exc.strerror or exc}") from None
    return backup


def remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
