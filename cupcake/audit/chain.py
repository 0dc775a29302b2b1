"""The hash chain: every line carries the SHA-256 of the previous line's bytes (without its newline).

Uses the interpreter's builtin SHA-256 module: ``hashlib`` costs about 4 ms of every hook call."""

from __future__ import annotations

try:
    from _sha256 import sha256 as _sha256  # Python 3.11
except ImportError:  # pragma: no cover - 3.12+ merged the SHA-2 family
    try:
        from _sha2 import sha256 as _sha256
    except ImportError:
        from hashlib import sha256 as _sha256

SCHEMA_VERSION = 1
# The ``prev`` of the very first line of a trail.
GENESIS = "0" * 64


def line_hash(line: bytes) -> str:
    """The hash the next line records as its ``prev``."""
    return _sha256(line).hexdigest()


def seq_of(line: bytes):
    """The ``seq`` of a stored line, read without parsing the JSON (None when absent)."""
    at = line.find(b'"seq":')
    if at < 0:
        return None
    at += 6
    end = at
    while end < len(line) and 48 <= line[end] <= 57:
        end += 1
    return int(line[at:end]) if end > at else None
