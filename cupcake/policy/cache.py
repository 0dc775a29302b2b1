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
# The compiler's own file: an install of other code (even under the same version number, as when
# installing from a branch) rewrites it, so a cache compiled by other code is never trusted.
_COMPILER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compiler.py")


def file_identity(path: str):
    """What makes a cached compile valid for one file: its stat fields, or its absence."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return (path, None)
    except OSError as exc:
        return (path, f"unreadable: {exc.strerror}")
    return (path, st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)


def cache_key(identities) -> tuple:
    return (__version__, sys.version, file_identity(_COMPILER), tuple(identities))


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
