"""What SQL (and the other query languages database clients take) would do, for the ``sql``
condition: each statement's kind. No ``re``: comments are cut, statements split on ``;`` outside
quotes, and the first words read.

Kinds: ``drop`` (DROP DATABASE/SCHEMA/TABLE/COLLECTION/VIEW/INDEX, ALTER TABLE … DROP,
``db.dropDatabase()``, ``db.x.drop()``), ``truncate``, ``delete-without-where`` (DELETE FROM t with
no WHERE, ``deleteMany({})``, ``remove({})``), ``update-without-where``, ``flush`` (redis
FLUSHALL/FLUSHDB)."""

from __future__ import annotations

KINDS = ("drop", "truncate", "delete-without-where", "update-without-where", "flush")
_DROPPED = ("database", "schema", "table", "collection", "view", "index", "user", "role", "keyspace", "if")


def kinds_of(text: str) -> set:
    """Every kind (see ``KINDS``) some statement of ``text`` has."""
    found: set = set()
    lowered = text.lower()
    if "dropdatabase(" in lowered or ".drop()" in lowered:
        found.add("drop")
    for call in ("deletemany({})", "deletemany( {} )", "remove({})", "deletemany()"):
        if call in lowered.replace(" ", "") or call in lowered:
            found.add("delete-without-where")
    if "updatemany({}" in lowered.replace(" ", ""):
        found.add("update-without-where")
    for statement in statements(lowered):
        words = statement.split()
        if not words:
            continue
        first = words[0]
        if first in ("flushall", "flushdb"):
            found.add("flush")
        elif first == "drop" and len(words) > 1 and words[1] in _DROPPED:
            found.add("drop")
        elif first == "alter" and "drop" in words:
            found.add("drop")
        elif first == "truncate":
            found.add("truncate")
        elif first == "delete" and "where" not in words:
            found.add("delete-without-where")
        elif first == "update" and "set" in words and "where" not in words:
            found.add("update-without-where")
    return found


def statements(text: str) -> list:
    """``text`` cut into statements, comments removed, each with its words separated by spaces."""
    out, current = [], []
    k, n = 0, len(text)
    quote = ""
    while k < n:
        ch = text[k]
        if quote:
            if ch == quote:
                quote = ""
            current.append(" ")
        elif ch in "'\"`":
            quote = ch
            current.append(" ")
        elif ch == "-" and text.startswith("--", k):
            end = text.find("\n", k)
            k = n if end < 0 else end
            continue
        elif ch == "/" and text.startswith("/*", k):
            end = text.find("*/", k + 2)
            k = n if end < 0 else end + 2
            continue
        elif ch == ";":
            out.append("".join(current))
            current = []
        elif ch in "(),":
            current.append(" ")
        else:
            current.append(ch)
        k += 1
    out.append("".join(current))
    return out
