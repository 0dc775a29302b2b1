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


def pack(secret_key: bytes, key, compiled: dict) -> bytes:
    """The cache's bytes for ``compiled`` (its "sre": pattern -> marshal bytes of the program), sealed
    with ``secret_key``. The list of patterns keeps the set's own order (the compiler's, canonical), and
    "sre" keeps its place among the keys: a set read back compares equal, byte for byte, to one compiled
    from source."""
    forms = compiled.get("sre") or {}
    entries = []
    tail = []
    offset = 0
    for pattern, program in forms.items():
        entries.append(
            _hash(pattern)
            + offset.to_bytes(4, "big")
            + len(program).to_bytes(4, "big")
            + tag(secret_key, pattern, program)
        )
        tail.append(program)
        offset += len(program)
    entries.sort()
    listed = marshal.dumps(list(forms))
    names = (offset, len(listed), tag(secret_key, "", listed, _NAMES_PERSON))
    tail.append(listed)
    offset += len(listed)
    strings: dict = {}
    tuples: dict = {}
    rest = {k: (None if k == "sre" else shared(v, strings, tuples)) for k, v in compiled.items()}
    head = marshal.dumps((key, rest, b"".join(entries), names, offset))
    sealed = len(head).to_bytes(_LENGTH, "big") + head
    return MAGIC + mac(secret_key, sealed) + sealed + b"".join(tail)


_PLAIN = frozenset((str, int, float, bool, bytes, type(None), tuple))


def shared(value, strings: dict, tuples: dict):
    """``value`` with equal strings, and equal tuples of the same types, made one object each: marshal
    writes such an object once and a reference where it comes again, and a run unmarshals the head
    (program names, flags, literals and empty tuples repeated across the packs' conditions) about 15%
    faster. The same value: ``canonical`` gives the same bytes."""
    if value.__class__ is str:
        return strings.setdefault(value, value)
    if value.__class__ is tuple:
        items = tuple(shared(v, strings, tuples) for v in value)
        if not all(v.__class__ in _PLAIN for v in items):
            return items  # a dict or a list inside: kept as it is
        # 1, True and 1.0 are equal, and so are tuples of them: the key says each item's type (an
        # item that is a tuple is already the one object of its value, kept alive by ``tuples``)
        key = tuple((v.__class__, id(v) if v.__class__ is tuple else v) for v in items)
        return tuples.setdefault(key, items)
    if value.__class__ is list:
        return [shared(v, strings, tuples) for v in value]
    if value.__class__ is dict:
        return {shared(k, strings, tuples): shared(v, strings, tuples) for k, v in value.items()}
    return value


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


def sealed_with(data: bytes, key: bytes) -> bool:
    """Whether ``data``'s head carries the MAC under ``key`` (doctor: a cache sealed before a secret existed)."""
    end = _HEAD_AT + int.from_bytes(data[8 + MAC_LENGTH : _HEAD_AT], "big")
    return len(data) >= end and mac(key, data[8 + MAC_LENGTH : end]) == data[8 : 8 + MAC_LENGTH]


def unpack(data: bytes, env):
    """(stored key, compiled) when ``data`` is a cache this user's secret authenticates, every program
    included (what validate and doctor compare), else a string saying why not (without a secret,
    nothing is authenticated)."""
    found = _head(data, len(data), env)
    if isinstance(found, str):
        return found
    stored_key, compiled, index, names, key, base = found
    try:
        offset, length, named = names
        entry = offset.to_bytes(4, "big") + length.to_bytes(4, "big") + named
        listed = _program(data, base, "", entry, key, len(data), _NAMES_PERSON)
        patterns = marshal.loads(listed) if listed is not None else None
    except Exception:
        patterns = None
    if not isinstance(patterns, list) or len(patterns) != len(index) // _ENTRY:
        return "its list of patterns does not match its tag: damaged or forged"
    entries: dict = {}
    for at in range(0, len(index), _ENTRY):
        entries.setdefault(index[at : at + 8], []).append(index[at + 8 : at + _ENTRY])
    forms = {}
    for pattern in patterns:
        tried = (
            [_program(data, base, pattern, e, key, len(data)) for e in entries.get(_hash(pattern), ())]
            if isinstance(pattern, str)
            else []
        )
        program = next((p for p in tried if p is not None), None)
        if program is None:
            return f"the program of the pattern {pattern!r} does not match its tag: damaged or forged"
        forms[pattern] = program
    compiled["sre"] = forms
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


def write(path: str, key, compiled: dict, env=None) -> bool:
    """Write atomically: a temporary file in the same directory, then rename. `run` writes only
    under ``.cupcake/``, so it never creates the secret (``sync`` does); without one nothing is
    written (False): an unkeyed seal would be anyone's to forge."""
    secret_key = secret(env if env is not None else os.environ)
    if secret_key is None:
        return False
    from cupcake.stores.atomic_write import write_atomically  # only a rebuild writes: keep it off the warm path

    write_atomically(path, pack(secret_key, key, compiled))
    return True
