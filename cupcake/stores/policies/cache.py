"""``.cupcake/policy.cache``: the compiled policy set as marshal data (never pickle), keyed by the
identity of every source file, and written atomically. A corrupt or foreign cache is rebuilt.

The cache is a speed-up, never an authority. Its body is authenticated with a keyed BLAKE2b MAC under a
per-user secret kept outside the project (``~/.cache/cupcake/cache-secret``, mode 0600, created by
``cupcake sync``, ``validate`` and ``doctor``: ``run`` writes only under ``.cupcake/``). Until the secret
exists no cache is written or trusted: every run compiles the policy files. A cache written by anything
that does not hold the secret (a forged file, one copied in from another machine or user) fails the
check and is recompiled from source.

What that guarantees, plainly (docs/security-model-hook.md): the secret is in the protected set's
``secrets``, so no tool of the agent that the hook sees may read or replace it (Read, Grep, MCP, the Bash
readers), and the operating-system layer makes it unreadable and ``.cupcake/`` read-only. Without that
layer, a program the hook cannot see into (``python3 tool.py``) runs as the user and can read the key;
it could then forge a cache, as it could edit cupcake.toml itself. ``cupcake doctor`` and ``cupcake
validate`` always compile from source and say loudly when the cache disagrees."""

from __future__ import annotations

import marshal
import os
import sys
from stat import S_ISREG

from cupcake import __file__ as _package_init
from cupcake import __version__
from cupcake.project import file_identity
from cupcake.stores.user_secret import SECRET_NAME, secret, secret_path  # noqa: F401 - the cache's key, re-exported

try:
    # Keyed BLAKE2b is a MAC by design, in one pass: on a 570 KB cache (1,000 policies and every pack)
    # 0.4 ms, where HMAC-SHA256 took 1.5 ms. The builtin module: hashlib costs milliseconds to import.
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b as _blake2b

MAC_LENGTH = 32
UNKEYED = b"cupcake: no per-user secret yet"  # the seal of caches written before this release: never trusted

MAGIC = b"CUPCAKE\x06"  # the compiled format: bump when its shape changes (6: BLAKE2b MAC, packed SRE forms)
CACHE_NAME = "policy.cache"
# The code that shapes the compiled form is the whole package (the compiler, its compile_* modules,
# the schema, the state conditions, the event tables, the run_command checks, the packs' TOML …). An installed copy
# is identified by its install record: pip writes RECORD anew on every install, even of the same
# version number (as when installing from a branch), so one stat covers every module. A source
# checkout (no record beside the package) is identified by the stat of every module in it.
_PACKAGE = os.path.dirname(os.path.abspath(_package_init))  # cupcake/, wherever this module sits in it
_RECORD = os.path.join(os.path.dirname(_PACKAGE), f"cupcake-{__version__}.dist-info", "RECORD")


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
            if entry.name.endswith((".py", ".toml", ".json")):  # modules, the packs' rules, the compiled tables
                try:
                    st = entry.stat()
                except OSError:
                    continue
                found.append((entry.path, st.st_mtime_ns, st.st_size, st.st_ino))
            elif entry.name != "__pycache__" and entry.is_dir(follow_symlinks=False):
                _modules(entry.path, found)


def cache_key(identities) -> tuple:
    return (__version__, sys.version, code_identity(), tuple(identities))


def mac(key: bytes, body: bytes) -> bytes:
    """Keyed BLAKE2b-256 of ``body`` (RFC 7693's MAC mode); the key is hashed down to 64 bytes if longer."""
    if len(key) > 64:
        key = _blake2b(key).digest()
    return _blake2b(body, key=key, digest_size=MAC_LENGTH).digest()


# marshal without references or interned-string marks (both added in version 3): what it writes
# depends only on the value, so equal compiled sets give equal bytes in any process.
CANONICAL_VERSION = 2


def canonical(compiled) -> bytes:
    """The compiled set as bytes that depend on its value alone: what `validate` and `doctor`
    compare. Raises TypeError on a set (its order follows the process's string hashes)."""
    _refuse_sets(compiled)
    return marshal.dumps(compiled, CANONICAL_VERSION)


def _refuse_sets(value) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (set, frozenset)):
            raise TypeError("a set in the compiled form: its order differs from one process to the next")
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def unpack(data: bytes, env):
    """(stored key, compiled) when ``data`` is a cache this user's secret authenticates, else a
    string saying why not (without a secret, nothing is authenticated)."""
    if len(data) < 8 + MAC_LENGTH or data[:8] != MAGIC:
        return "not a cache of this Cupcake's format"
    key = secret(env)
    if key is None:
        return "there is no per-user secret to check it with"
    body = data[8 + MAC_LENGTH :]
    if mac(key, body) != data[8 : 8 + MAC_LENGTH]:
        return "its authentication code does not match: it was not written by this user's Cupcake"
    try:
        stored_key, compiled = marshal.loads(body)
    except Exception:
        return "it cannot be read"
    return stored_key, compiled


def read_regular(fd: int):
    """The whole content of a regular file (None for a FIFO, device, directory or a read error)."""
    try:
        st = os.fstat(fd)
        if not S_ISREG(st.st_mode):
            return None
        chunks: list[bytes] = []
        size = st.st_size
        while True:
            chunk = os.read(fd, max(size, 65536))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    except OSError:
        return None


def read(path: str, key, env=None):
    """The cached compiled set for ``key``, or None when missing, corrupt, foreign, forged or stale."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        data = read_regular(fd)
    finally:
        os.close(fd)
    if data is None:
        return None
    unpacked = unpack(data, env if env is not None else os.environ)
    if isinstance(unpacked, str):
        return None
    stored_key, compiled = unpacked
    if stored_key != key or not isinstance(compiled, dict) or "settings" not in compiled:
        return None
    return compiled


def write(path: str, key, compiled: dict, env=None) -> bool:
    """Write atomically: a temporary file in the same directory, then rename. `run` writes only
    under ``.cupcake/``, so it never creates the secret (``sync`` does); without one nothing is
    written (False): an unkeyed seal would be anyone's to forge."""
    secret_key = secret(env if env is not None else os.environ)
    if secret_key is None:
        return False
    body = marshal.dumps((key, compiled))
    from cupcake.stores.atomic_write import write_atomically  # only a rebuild writes: keep it off the warm path

    write_atomically(path, MAGIC + mac(secret_key, body) + body)
    return True
