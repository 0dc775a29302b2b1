"""The hash chain: every line carries the SHA-256 of the previous line's bytes (without its newline)
in ``prev``, and ends with the SHA-256 of its own bytes before that ending in ``hash``:
``{"v":1,"seq":7,"prev":"<64 hex>",…,"hash":"<64 hex>"}``. ``hash`` shows which line was
changed (the newest one included); ``prev`` shows lines removed, inserted or reordered.

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


# A sealed line ends with ``,"hash":"<64 hex>"}``.
_SEAL_HEAD = b',"hash":"'
SEAL_LENGTH = len(_SEAL_HEAD) + 64 + 2


def seal(unsealed: bytes) -> bytes:
    """``unsealed`` is a JSON object's text without its closing brace; returns the whole line."""
    return unsealed + _SEAL_HEAD + _sha256(unsealed).hexdigest().encode() + b'"}'


def seal_holds(line: bytes):
    """None when the line's own ``hash`` matches its bytes, else what is wrong."""
    if (
        len(line) <= SEAL_LENGTH
        or not line.startswith(b"{")
        or line[-SEAL_LENGTH:][: len(_SEAL_HEAD)] != _SEAL_HEAD
        or not line.endswith(b'"}')
    ):
        return "the line does not end with its own `hash`"
    if _sha256(line[:-SEAL_LENGTH]).hexdigest().encode() != line[-SEAL_LENGTH + len(_SEAL_HEAD) : -2]:
        return "the line was changed after it was written: its content no longer matches its own `hash`"
    return None


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
