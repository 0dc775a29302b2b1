"""Paths with their symbolic links resolved, as ``os.path.realpath`` resolves them, each folder on the way
looked at once for every path of a run that shares it (``memo``): a Bash line's targets, the installation's
dozen paths and the secrets share most of their folders, and ``os.path.realpath`` takes an ``lstat`` per
component of each path, again for every path. The answer is always ``os.path.realpath``'s (the same walk:
``..`` leaves the folder reached so far, a missing or unreadable name is kept as written); a relative
path, a loop or a long chain of links goes to ``os.path.realpath`` whole. ``tests/test_resolve.py``
compares them on random trees."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.lean_os import S_ISLNK

_MAX_LINKS = 40  # links followed for one path before os.path.realpath answers (a loop, a long chain)


class _Unsure(Exception):
    """A path left to ``os.path.realpath`` (a loop, a chain of links too long)."""


def realpath(path: str, memo: dict) -> str:
    """``os.path.realpath(path)``. ``memo``: a resolved folder joined with a name -> where it leads,
    shared by the paths of one run (the file system is taken not to change during it)."""
    if not path.startswith("/"):
        return os.path.realpath(path)  # relative to the working directory, as realpath reads it
    try:
        return _walk(path, "/", memo, 0)
    except (_Unsure, OSError, ValueError):
        return os.path.realpath(path)  # (which raises as it would have)


def _walk(rest: str, start: str, memo: dict, links: int) -> str:
    """``rest`` walked from the resolved folder ``start`` (from "/" when ``rest`` is absolute)."""
    current = "/" if rest.startswith("/") else start
    for name in rest.split("/"):
        if not name or name == ".":
            continue
        if name == "..":
            current = current.rpartition("/")[0] or "/"
            continue
        here = ("" if current == "/" else current) + "/" + name
        found = memo.get(here)
        if found is None:
            try:
                link = S_ISLNK(os.lstat(here).st_mode)
            except OSError:  # missing or unreadable: realpath keeps the name as it is
                link = False
            if link:
                if links >= _MAX_LINKS:
                    raise _Unsure(here)
                found = _walk(os.readlink(here), current, memo, links + 1)
            else:
                found = here
            memo[here] = found
        current = found
    return current
