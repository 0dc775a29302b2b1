"""A ``session_id`` comes from the agent and is never trusted as a path: it maps to a safe file name.

A plain id (letters, digits, ``-`` and ``_``, at most 64 characters: Claude Code's UUIDs) is used
as it is. Anything else (``../../x``, ``/etc/passwd``, a NUL, a 10 kB id) becomes a readable prefix
of its safe characters plus a hash of the whole id: ``______x.3f9a…``. Plain ids never contain
``.``, so a mapped name can never equal a plain one. A missing or empty id has no state at all."""

from __future__ import annotations

_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
MAX_PLAIN = 64
PREFIX = 24
DIGEST = 24  # hex characters of SHA-256: 96 bits


def _sha256_hex(data: bytes) -> str:
    try:
        from _sha2 import sha256  # Python 3.12+
    except ImportError:
        try:
            from _sha256 import sha256  # Python 3.11
        except ImportError:  # pragma: no cover - builds without the builtin
            from hashlib import sha256
    return sha256(data).hexdigest()


def state_name(session_id):
    """The file name (without suffix) for ``session_id``, or None when it names no session."""
    if not isinstance(session_id, str) or not session_id:
        return None
    if len(session_id) <= MAX_PLAIN and all(c in _SAFE for c in session_id):
        return session_id
    readable = "".join(c if c in _SAFE else "_" for c in session_id[:PREFIX])
    digest = _sha256_hex(session_id.encode("utf-8", "surrogatepass"))[:DIGEST]
    return f"{readable}.{digest}"
