"""JSON where there is a lot of it: reading the audit trail back (``cupcake audit``, ``stats``,
``verify``, ``replay``) and exporting it. One helper, so the rest of the code does not care which parser
does the work: orjson, several times faster than the standard library on thousands of lines.

Never on a hook call's path: a run writes its audit line with the standard library's encoder
(``cupcake.speedups``), and importing orjson costs more than a whole warm run saves."""

from __future__ import annotations

import orjson

# What a line that is not JSON raises (orjson's error is a ValueError, as the standard library's is).
DecodeError = orjson.JSONDecodeError


def loads(data: bytes | str) -> object:
    """One JSON value; ``DecodeError`` (a ValueError) when ``data`` is not JSON."""
    return orjson.loads(data)


def dumps(value: object) -> str:
    """Compact JSON text, one line; keys in their order, non-ASCII kept as it is."""
    return orjson.dumps(value).decode()
