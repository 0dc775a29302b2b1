"""``.cupcake/policy.cache``: the compiled policy set as marshal data (never pickle), keyed by the
identity of every source file, and written atomically. A corrupt or foreign cache is rebuilt."""

from __future__ import annotations

import marshal
import os
import sys
from zlib import crc32

from cupcake import __version__

MAGIC = b"CUPCAKE\x03"  # the compiled format: bump when its shape changes
CACHE_NAME = "policy.cache"
# The code that shapes the compiled form is the whole package (the compiler, its compile_* modules,
# the schema, the state conditions, the event tables, the run_command checks …). An installed copy
# is identified by its install record: pip writes RECORD anew on every install, even of the same
# version number (as when installing from a branch), so one stat covers every module. A source
# checkout (no record beside the package) is identified by the stat of every module in it.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_RECORD = os.path.join(os.path.dirname(_PACKAGE), f"cupcake-{__version__}.dist-info", "RECORD")


def file_identity(path: str):
    """What makes a cached compile valid for one file: its stat fields, or its absence."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return (path, None)
    except OSError as exc:
        return (path, f"unreadable: {exc.strerror}")
    return (path, st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def code_identity(package: str = _PACKAGE, record: str = _RECORD) -> tuple:
    """What identifies the code that compiles: the install record's identity, or every module's."""
    ident = file_identity(record)
    if ident[1] is not None:
        return ident
    found: list = []
    _modules(package, found)
    found.sort()
    return tuple(found)


def _modules(folder: str, found: list) -> None:
    try:
        entries = os.scandir(folder)
    except OSError:
        return
    with entries:
        for entry in entries:
            if entry.name.endswith(".py"):
                try:
                    st = entry.stat()
                except OSError:
                    continue
                found.append((entry.path, st.st_mtime_ns, st.st_size, st.st_ino))
            elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
                _modules(entry.path, found)


def cache_key(identities) -> tuple:
    return (__version__, sys.version, code_identity(), tuple(identities))


def read(path: str, key):
    """The cached compiled set for ``key``, or None when missing, corrupt, foreign or stale."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if len(data) < 12 or data[:8] != MAGIC:
        return None
    body = data[12:]
    if int.from_bytes(data[8:12], "little") != crc32(body):
        return None
    try:
        stored_key, compiled = marshal.loads(body)
    except Exception:
        return None
    if stored_key != key or not isinstance(compiled, dict) or "settings" not in compiled:
        return None
    return compiled


def write(path: str, key, compiled: dict) -> None:
    """Write atomically: a temporary file in the same directory, then rename."""
    body = marshal.dumps((key, compiled))
    from cupcake.stores.atomic_write import write_atomically  # only a rebuild writes: keep it off the warm path

    write_atomically(path, MAGIC + crc32(body).to_bytes(4, "little") + body)
