"""Finding an integrator's system: by entry-point name in a group, or by ``module:attr`` import path.

Nothing is scanned unless a name is asked for, and nothing is loaded but what is asked for.
``importlib.metadata`` costs about 40 ms to import, so the entry points of a group are kept in a
small cache (marshal, never pickle) keyed by the interpreter and by the modification time of
every ``sys.path`` directory: installing, upgrading or removing a distribution changes the
directory that holds its metadata, and with it the key.
"""

from __future__ import annotations

import os
import sys

IMPORT_PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")


class NotFound(Exception):
    """No system of that name; the message says where Cupcake looked."""

    public = True


def is_import_path(ref: str) -> bool:
    """``package.module:attr`` (dotted identifiers on both sides of one colon)."""
    module, sep, attr = ref.partition(":")
    parts = module.split(".") + attr.split(".")
    return bool(sep) and all(p and not p[0].isdigit() and set(p) <= IMPORT_PATH_CHARS for p in parts)


def import_object(ref: str):
    """The object at ``module:attr`` (``attr`` may be dotted)."""
    from importlib import import_module

    module_name, _, attr = ref.partition(":")
    try:
        obj = import_module(module_name)
    except ModuleNotFoundError as exc:
        if (
            exc.name
            and module_name.startswith(exc.name)
            and module_name[len(exc.name) : len(exc.name) + 1] in ("", ".")
        ):
            raise NotFound(f"no module named {exc.name!r} is installed for this Python ({sys.executable})") from None
        raise
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise NotFound(f"module {module_name!r} has no attribute {attr!r}") from None
    return obj


def group_entry_points(group: str, cache_path: str | None = None) -> dict:
    """``{name: (value, distribution, version)}`` of every entry point in ``group``; the first
    distribution on ``sys.path`` wins a name, as for imports."""
    key = _key()
    if cache_path:
        cached = _read(cache_path, key)
        if cached is not None:
            return cached
    found = scan(group)
    if cache_path:
        try:
            _write(cache_path, key, found)
        except OSError:
            pass  # only speed is lost: the next run scans again
    return found


def scan(group: str) -> dict:
    from importlib.metadata import entry_points

    found: dict = {}
    for ep in entry_points(group=group):  # one per distribution name: the first on sys.path
        if ep.name not in found:
            dist = ep.dist
            found[ep.name] = (ep.value, dist.name if dist else "", dist.version if dist else "")
    return found


def distribution_of(module_name: str):
    """``(name, version)`` of the installed distribution that provides a top-level module, or None."""
    from importlib.metadata import packages_distributions, version

    top = module_name.partition(".")[0]
    names = packages_distributions().get(top)
    if not names:
        return None
    try:
        return names[0], version(names[0])
    except Exception:
        return names[0], ""


# The cache ---------------------------------------------------------------------------------------

_MAGIC = b"CUPCAKE-EP\x01"


def _key() -> tuple:
    from cupcake import __version__

    stamps: list[tuple[str, int | None]] = []
    for entry in sys.path:
        if not entry:  # the working directory (python -c, -m): it changes with every file written there
            stamps.append((entry, None))
            continue
        try:
            stamps.append((entry, os.stat(entry or ".").st_mtime_ns))
        except OSError:
            stamps.append((entry, None))
    return (__version__, sys.version, sys.executable, tuple(stamps))


def _read(path: str, key):
    import marshal

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if not data.startswith(_MAGIC):
        return None
    try:
        stored_key, found = marshal.loads(data[len(_MAGIC) :])
    except Exception:
        return None
    if stored_key != key or not isinstance(found, dict):
        return None
    for value in found.values():
        if not (type(value) is tuple and len(value) == 3 and all(isinstance(v, str) for v in value)):
            return None
    return found


def _write(path: str, key, found: dict) -> None:
    import marshal

    from cupcake.stores.atomic_write import write_atomically

    write_atomically(path, _MAGIC + marshal.dumps((key, found)))
