"""What a forger of ``.cupcake/policy.cache`` does: read its layout without any key, change what it
holds, and seal it again with whatever key it has (tests only)."""

from __future__ import annotations

import marshal

from cupcake.stores.policies import cache, whole_cache

HEAD_AT = 8 + cache.MAC_LENGTH + 4
ENTRY = 8 + 4 + 4 + cache.TAG_LENGTH


def parts(data: bytes) -> tuple:
    """(stored key, compiled without its programs, {pattern: (offset, length, tag)}, where the tail
    starts), read without checking anything."""
    end = HEAD_AT + int.from_bytes(data[8 + cache.MAC_LENGTH : HEAD_AT], "big")
    key, compiled, index, (at, n, _tag), _tail = marshal.loads(data[HEAD_AT:end])
    patterns = marshal.loads(data[end + at : end + at + n])
    by_hash = {cache._hash(p): p for p in patterns}
    table = {}
    for i in range(0, len(index), ENTRY):
        e = index[i : i + ENTRY]
        table[by_hash[e[:8]]] = (int.from_bytes(e[8:12], "big"), int.from_bytes(e[12:16], "big"), e[16:])
    return key, compiled, {p: table[p] for p in patterns}, end


def contents(data: bytes) -> tuple:
    """(stored key, compiled, every program included) of a cache's bytes, read without checking anything."""
    key, compiled, table, end = parts(data)
    compiled["sre"] = {p: data[end + at : end + at + n] for p, (at, n, _tag) in table.items()}
    return key, compiled


def sealed(secret: bytes, key, compiled: dict) -> bytes:
    """A cache holding ``compiled``, sealed (head and programs) with ``secret``."""
    return whole_cache.pack(secret, key, compiled)


def with_table(data: bytes, secret: bytes, table: dict) -> bytes:
    """``data`` with its head's index made from ``table`` ({pattern: (offset, length, tag)}, any values
    that fit) and sealed again with ``secret``; the tail as it was."""
    end = HEAD_AT + int.from_bytes(data[8 + cache.MAC_LENGTH : HEAD_AT], "big")
    key, compiled, _index, names, tail = marshal.loads(data[HEAD_AT:end])
    index = b"".join(
        sorted(
            cache._hash(p) + (at % 2**32).to_bytes(4, "big") + (n % 2**32).to_bytes(4, "big") + t[:16].ljust(16, b"\0")
            for p, (at, n, t) in table.items()
        )
    )
    head = marshal.dumps((key, compiled, index, names, tail))
    body = len(head).to_bytes(4, "big") + head
    return cache.MAGIC + cache.mac(secret, body) + body + data[end:]
