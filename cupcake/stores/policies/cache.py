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
import sys

from cupcake import __file__ as _package_init
from cupcake import __version__
from cupcake import lean_os as os
from cupcake.lean_os import S_ISREG
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

MAGIC = b"CUPCAKE\x07"  # the compiled format: bump when its shape changes (7: a head, then tagged SRE programs)
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


# The file: MAGIC, the MAC, the head's length (4 bytes, big-endian), the head, then the tail: each
# regex's SRE program, then the list of patterns. The head is ``marshal((key, compiled with "sre" None,
# index, names, tail length))``. The index is one bytes object, sorted: per program a hash of its pattern
# (8 bytes), its offset in the tail and its length (4 each) and its tag (16, keyed); ``names`` is where
# the list of patterns lies and its tag. The MAC covers the head's length and the head. A warm run reads
# and authenticates the head alone (a third of a cache with the recommended packs, whose programs are 81%
# of it, and no object per pattern), checks the file's size against the head's, and reads each program
# it compiles (about 17 of 340) when first asked, checking its tag. Only validate and doctor read the
# list of patterns, to compare the whole set with the source.
_LENGTH = 4
_HEAD_AT = 8 + MAC_LENGTH + _LENGTH
_FIRST_READ = 1 << 16  # one read holds the head of an ordinary cache (a larger one takes a second)
TAG_LENGTH = 16
_ENTRY = 8 + 4 + 4 + TAG_LENGTH
_TAG_PERSON = b"cupcake sre"  # domain separation: a program's tag is never a head's MAC
_NAMES_PERSON = b"cupcake names"
_INDEX_PERSON = b"cupcake index"


def tag(key: bytes, pattern: str, program: bytes, person: bytes = _TAG_PERSON) -> bytes:
    """The keyed BLAKE2b-128 tag of one pattern's SRE program (under the per-user secret): the pattern is
    in it, so a program moved to another pattern's entry is no longer that pattern's."""
    if len(key) > 64:
        key = _blake2b(key).digest()
    text = pattern.encode("utf-8", "surrogatepass") + b"\0" + program
    return _blake2b(text, key=key, digest_size=TAG_LENGTH, person=person).digest()


def _hash(pattern: str) -> bytes:
    """Where a pattern sorts in the index (not a secret: two patterns that share one are both tried)."""
    return _blake2b(pattern.encode("utf-8", "surrogatepass"), digest_size=8, person=_INDEX_PERSON).digest()


class Programs:
    """The SRE programs of a cache read from disk, each read and checked against its tag when first
    asked for (``get``, as a dict's). A program that cannot be read or whose tag does not hold is absent:
    the pattern is then compiled from its text (the policies in the head hold it, authenticated), which
    gives the same regex more slowly, so damage never changes a decision; the damaged cache is removed
    for the next run to rebuild."""

    __slots__ = ("_index", "_count", "_fd", "_base", "_size", "_key", "_path", "_found")

    def __init__(self, index: bytes, fd: int, base: int, size: int, key: bytes, path: str) -> None:
        self._index = index
        self._count = len(index) // _ENTRY
        self._fd = fd
        self._base = base
        self._size = size
        self._key = key
        self._path = path
        self._found: dict = {}

    def __len__(self) -> int:
        return self._count

    def __contains__(self, pattern) -> bool:
        return isinstance(pattern, str) and self._first(_hash(pattern)) >= 0

    def _first(self, hashed: bytes) -> int:
        """The first entry whose hash is ``hashed``, or -1."""
        index = self._index
        lo, hi = 0, self._count
        while lo < hi:
            mid = (lo + hi) // 2
            if index[mid * _ENTRY : mid * _ENTRY + 8] < hashed:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < self._count and index[lo * _ENTRY : lo * _ENTRY + 8] == hashed else -1

    def get(self, pattern, default=None):
        found = self._found.get(pattern)
        if found is not None:
            return found
        if not isinstance(pattern, str):
            return default
        hashed = _hash(pattern)
        at = self._first(hashed)
        if at < 0:
            return default
        index = self._index
        while at < self._count and index[at * _ENTRY : at * _ENTRY + 8] == hashed:
            program = _program(
                self._fd, self._base, pattern, index[at * _ENTRY + 8 : (at + 1) * _ENTRY], self._key, self._size
            )
            if program is not None:
                self._found[pattern] = program
                return program
            at += 1
        self._damaged()
        return default

    def _damaged(self) -> None:
        """Remove the cache this was read from (not one a rebuild has put at its path since)."""
        try:
            here, there = os.fstat(self._fd), os.stat(self._path, follow_symlinks=False)
            if (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino):
                os.unlink(self._path)
        except OSError:
            pass

    def close(self, _close=os.close) -> None:  # bound now: __del__ may run while the interpreter shuts down
        if self._fd >= 0:
            try:
                _close(self._fd)
            except OSError:
                pass
            self._fd = -1

    def __del__(self) -> None:
        self.close()


def _program(fd, base: int, pattern: str, entry: bytes, key: bytes, size: int, person: bytes = _TAG_PERSON):
    """One program's bytes (``entry``: offset, length, tag) when the file holds them and the tag holds.
    ``fd``: an open file (``size`` long), or the cache's bytes."""
    offset, length = int.from_bytes(entry[:4], "big"), int.from_bytes(entry[4:8], "big")
    at = base + offset
    if at + length > size:  # outside the file: nothing is read
        return None
    try:
        program = os.pread(fd, length, at) if isinstance(fd, int) else fd[at : at + length]
    except (OSError, OverflowError):
        return None
    if len(program) != length or tag(key, pattern, program, person) != entry[8:]:
        return None
    return program


def _head(fd, size: int, env):
    """(stored key, compiled, index, names, secret, where the tail starts) when the cache's head is this
    user's, well formed, and the file is exactly as long as it says; else a string saying why not.
    ``fd``: an open file, or the cache's bytes."""

    def pread(n: int, at: int) -> bytes:
        return os.pread(fd, n, at) if isinstance(fd, int) else fd[at : at + n]

    first = pread(min(size, _FIRST_READ), 0)
    if len(first) < _HEAD_AT or first[:8] != MAGIC:
        return "not a cache of this Cupcake's format"
    key = secret(env)
    if key is None:
        return "there is no per-user secret to check it with"
    end = _HEAD_AT + int.from_bytes(first[8 + MAC_LENGTH : _HEAD_AT], "big")
    if len(first) < end <= size:
        first += pread(end - len(first), len(first))
    if len(first) < end:
        return "it is shorter than its head says: damaged or cut short"
    if mac(key, first[8 + MAC_LENGTH : end]) != first[8 : 8 + MAC_LENGTH]:
        return "its authentication code does not match: it was not written by this user's Cupcake"
    try:
        stored_key, compiled, index, names, tail = marshal.loads(first[_HEAD_AT:end])
    except Exception:
        return "it cannot be read"
    if not (isinstance(compiled, dict) and isinstance(index, bytes) and len(index) % _ENTRY == 0):
        return "it cannot be read"
    if not isinstance(tail, int) or size != end + tail:
        return "its length is not the one its head gives: damaged, cut short or added to"
    return stored_key, compiled, index, names, key, end


def read(path: str, key, env=None):
    """The cached compiled set for ``key``, or None when missing, corrupt, foreign, forged or stale. Its
    "sre" reads each program when first asked (``Programs``), so the file stays open while it lives."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        found = _head(fd, st.st_size, env if env is not None else os.environ) if S_ISREG(st.st_mode) else None
    except OSError:
        found = None
    if found is None or isinstance(found, str) or found[0] != key or "settings" not in found[1]:
        os.close(fd)
        return None
    compiled = found[1]
    compiled["sre"] = Programs(found[2], fd, found[5], st.st_size, found[4], path)
    return compiled
