"""The policy cache as a whole (cold): packing and writing it when the policies are compiled, reading
all of it and its canonical bytes when ``validate`` and ``doctor`` compare it with the source. A warm
run reads only the head, and a program when it first compiles it (``cache``: the layout, the MAC, the
tags); none of this is loaded then."""

from __future__ import annotations

import marshal
import os
from stat import S_ISREG

from cupcake.stores.policies.cache import (
    _ENTRY,
    _HEAD_AT,
    _LENGTH,
    _NAMES_PERSON,
    MAC_LENGTH,
    MAGIC,
    _hash,
    _head,
    _program,
    mac,
    secret,
    tag,
)

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
