"""A protected path in every form a tool may name it: as written (normalised) and with symbolic links
resolved, folded to one case where the file system ignores case. The protected set and the installation's
paths both list paths this way."""

from __future__ import annotations

import os
import sys
from stat import S_ISLNK

FOLD = sys.platform == "darwin"  # APFS and HFS+ are case-insensitive by default


def forms(paths, resolved: dict | None = None) -> list:
    """Each path as written (normalised) and with symlinks resolved; folded where names are.
    ``resolved``: folders already resolved, shared between calls over paths of the same tree."""
    out: list = []
    memo = {} if resolved is None else resolved
    for path in paths:
        for form in (os.path.normpath(os.path.abspath(path)), realpath(path, memo)):
            form = form.lower() if FOLD else form
            if form not in out:
                out.append(form)
    return out


def realpath(path: str, memo: dict) -> str:
    """``os.path.realpath(path)``, with the folders on the way that are no symbolic link checked once for
    every path that shares them (``memo``): the installation's dozen paths share most of theirs, and
    ``os.path.realpath`` takes an ``lstat`` per component of each path. A path with a link or a ``..``
    on the way goes to ``os.path.realpath`` whole, so the answer is always its answer."""
    if ".." in path.split("/"):
        return os.path.realpath(path)
    absolute = os.path.abspath(path)  # relative to the working directory, as realpath
    if absolute.startswith("//"):  # POSIX keeps a leading "//" in a normalised path; realpath does not
        absolute = "/" + absolute.lstrip("/")
    return absolute if _plain(absolute, memo) else os.path.realpath(path)


def _plain(path: str, memo: dict) -> bool:
    """Whether no component of the absolute, normalised ``path`` is a symbolic link."""
    found = memo.get(path)
    if found is None:
        parent = path.rpartition("/")[0]
        try:
            found = (not parent or _plain(parent, memo)) and not S_ISLNK(os.lstat(path).st_mode)
        except OSError:  # missing or unreadable: realpath keeps the name as it is
            found = True
        memo[path] = found
    return found
