"""``os.path`` (``posixpath``) for text paths, without importing ``os``: the functions a hook call uses,
ported line for line from the standard library (Python 3.11, whose answers later versions keep), with
``posix``'s C ``normpath`` where the interpreter has it, as ``posixpath`` takes it. Paths may be ``str``
or path-like; ``tests/lean_os/`` compares each function with ``os.path``'s on generated paths and trees."""

from __future__ import annotations

from posix import fspath, getcwd, lstat, readlink, stat

from cupcake.lean_os.variables import environ

__all__ = [
    "abspath", "basename", "dirname", "exists", "expanduser", "isabs", "isdir", "isfile", "islink", "join",
    "getsize", "lexists", "normpath", "realpath", "relpath", "split",
]  # fmt: skip

_DIR, _FILE, _LINK, _KIND = 0o040000, 0o100000, 0o120000, 0o170000  # stat.S_IFDIR, S_IFREG, S_IFLNK, S_IFMT


def isabs(s) -> bool:
    return fspath(s).startswith("/")


def join(a, *p) -> str:
    path = fspath(a)
    if not isinstance(path, str):
        raise TypeError(f"join() argument must be str or os.PathLike, not {type(path).__name__}")
    for b in map(fspath, p):
        if not isinstance(b, str):
            raise TypeError(f"join() argument must be str or os.PathLike, not {type(b).__name__}")
        if b.startswith("/"):
            path = b
        elif not path or path.endswith("/"):
            path += b
        else:
            path += "/" + b
    return path


def split(p) -> tuple[str, str]:
    p = fspath(p)
    i = p.rfind("/") + 1
    head, tail = p[:i], p[i:]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head, tail


def basename(p) -> str:
    p = fspath(p)
    return p[p.rfind("/") + 1 :]


def dirname(p) -> str:
    p = fspath(p)
    head = p[: p.rfind("/") + 1]
    if head and head != "/" * len(head):
        head = head.rstrip("/")
    return head


def _normpath(path: str) -> str:
    if path == "":
        return "."
    initial_slashes = 1 if path.startswith("/") else 0
    # POSIX allows one or two initial slashes, but treats three or more as one
    if initial_slashes and path.startswith("//") and not path.startswith("///"):
        initial_slashes = 2
    new_comps: list[str] = []
    for comp in path.split("/"):
        if comp in ("", "."):
            continue
        if comp != ".." or (not initial_slashes and not new_comps) or (new_comps and new_comps[-1] == ".."):
            new_comps.append(comp)
        elif new_comps:
            new_comps.pop()
    path = "/".join(new_comps)
    if initial_slashes:
        path = "/" * initial_slashes + path
    return path or "."


try:
    from posix import _path_normpath  # type: ignore[attr-defined]  # CPython's C normpath (3.11.2 and later)
except ImportError:  # pragma: no cover - older interpreters: the Python version above
    _path_normpath = None


def normpath(path) -> str:
    path = fspath(path)
    if not isinstance(path, str):
        raise TypeError(f"expected str or os.PathLike, not {type(path).__name__}")
    if _path_normpath is not None:
        return _path_normpath(path) or "."
    return _normpath(path)


def abspath(path) -> str:
    path = fspath(path)
    if not path.startswith("/"):
        path = join(getcwd(), path)
    return normpath(path)


def _kind(call, path) -> int | None:
    """The file type bits of ``call(path)`` (``stat`` or ``lstat``); None where there is no such file,
    or no file name (a NUL byte, a character the file system's encoding has not), as ``genericpath``."""
    try:
        return call(path).st_mode & _KIND
    except (OSError, ValueError):
        return None


def exists(path) -> bool:
    return _kind(stat, path) is not None


def lexists(path) -> bool:
    return _kind(lstat, path) is not None


def isfile(path) -> bool:
    return _kind(stat, path) == _FILE


def isdir(path) -> bool:
    return _kind(stat, path) == _DIR


def islink(path) -> bool:
    return _kind(lstat, path) == _LINK


def getsize(filename) -> int:
    return stat(filename).st_size


def expanduser(path) -> str:
    """``~`` and ``~user`` expanded; the path unchanged if that user or ``$HOME`` is unknown."""
    path = fspath(path)
    if not path.startswith("~"):
        return path
    i = path.find("/", 1)
    if i < 0:
        i = len(path)
    if i == 1:
        home = environ.get("HOME")
        if home is None:
            try:
                import pwd
            except ImportError:
                return path
            try:
                from posix import getuid

                home = pwd.getpwuid(getuid()).pw_dir
            except KeyError:
                return path
        userhome = home
    else:
        try:
            import pwd
        except ImportError:
            return path
        try:
            userhome = pwd.getpwnam(path[1:i]).pw_dir
        except KeyError:
            return path
    userhome = userhome.rstrip("/")
    return (userhome + path[i:]) or "/"


def realpath(filename) -> str:
    """The canonical path: every symbolic link on the way resolved (``os.path.realpath``, not strict)."""
    filename = fspath(filename)
    found, _ok = _joinrealpath("", filename, {})
    return abspath(found)


def _joinrealpath(path: str, rest: str, seen: dict) -> tuple[str, bool]:
    if rest.startswith("/"):
        rest = rest[1:]
        path = "/"
    while rest:
        name, _, rest = rest.partition("/")
        if not name or name == ".":
            continue
        if name == "..":
            if path:
                path, name = split(path)
                if name == "..":
                    path = join(path, "..", "..")
            else:
                path = ".."
            continue
        newpath = join(path, name)
        try:
            is_link = lstat(newpath).st_mode & _KIND == _LINK
        except OSError:
            is_link = False
        if not is_link:
            path = newpath
            continue
        if newpath in seen:  # already met on this walk
            path = seen[newpath]
            if path is not None:
                continue
            return join(newpath, rest), False  # a loop: what was resolved, and the rest unchanged
        seen[newpath] = None  # not resolved yet
        path, ok = _joinrealpath(path, readlink(newpath), seen)
        if not ok:
            return join(path, rest), False
        seen[newpath] = path
    return path, True


def relpath(path, start=None) -> str:
    """``path`` relative to ``start`` (the working folder by default), by their text alone."""
    if not path:
        raise ValueError("no path specified")
    path = fspath(path)
    start = "." if start is None else fspath(start)
    start_list = [x for x in abspath(start).split("/") if x]
    path_list = [x for x in abspath(path).split("/") if x]
    i = 0
    while i < min(len(start_list), len(path_list)) and start_list[i] == path_list[i]:
        i += 1
    rel_list = [".."] * (len(start_list) - i) + path_list[i:]
    if not rel_list:
        return "."
    return join(*rel_list)
