"""The approval code, its keyed hash, the seal of an entry, and the fingerprint of the call it lets through.

A code is 8 characters of Crockford's base32 (40 bits: no I, L, O or U), shown as ``K7QX-4M2P``;
typed codes are read leniently (case, dashes and spaces ignored; O read as 0, I and L as 1). The store
keeps only ``blake2b(code, key=K)`` where ``K`` is derived from the per-user secret, so reading the
store teaches nothing about a code, and guessing offline needs the secret too."""

from __future__ import annotations

from cupcake import lean_os as os

try:  # the builtin module: hashlib costs milliseconds to import
    from _blake2 import blake2b
except ImportError:  # pragma: no cover
    from hashlib import blake2b

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
_LENIENT = {"O": "0", "I": "1", "L": "1"}
_DOMAIN = b"cupcake approvals v1"


def new_code() -> str:
    raw = os.urandom(LENGTH)
    return "".join(ALPHABET[b & 31] for b in raw)


def shown(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def normalized(typed: str) -> str | None:
    """The code a person typed, in canonical form; None when it cannot be one."""
    text = "".join(c for c in typed.upper() if c not in "- \t")
    text = "".join(_LENIENT.get(c, c) for c in text)
    if len(text) != LENGTH or any(c not in ALPHABET for c in text):
        return None
    return text


def approval_key(secret: bytes) -> bytes:
    """The approvals' own key, derived from the per-user secret (domain-separated from the cache's seal)."""
    return blake2b(_DOMAIN, key=secret[:64], digest_size=32).digest()


def code_hash(key: bytes, code: str) -> str:
    return blake2b(code.encode("ascii"), key=key, digest_size=32).hexdigest()


def seal(key: bytes, text: str) -> str:
    """The MAC of an entry's canonical text: an entry written without the key is not trusted."""
    return blake2b(text.encode("utf-8", "surrogatepass"), key=key, digest_size=32).hexdigest()


def sealed(key: bytes, entry: dict, kind: str) -> dict:
    """``entry`` with its seal; ``kind`` ("pending" or "grants", the list it belongs to) is sealed with it,
    so an offered code moved among the grants is no grant."""
    from cupcake import speedups

    body = {k: v for k, v in entry.items() if k != "seal"}
    return dict(body, seal=seal(key, kind + ":" + speedups.json_dumps(ordered(body))))


def trusted(key: bytes, entry, kind: str) -> bool:
    """Whether ``entry`` carries the seal it would have been given under ``key`` as one of ``kind``."""
    if not isinstance(entry, dict) or not isinstance(entry.get("seal"), str):
        return False
    from cupcake import speedups

    body = {k: v for k, v in entry.items() if k != "seal"}
    expected = seal(key, kind + ":" + speedups.json_dumps(ordered(body)))
    return same(expected, entry["seal"])


def same(a: str, b: str) -> bool:
    """Constant-time string comparison (the builtin one, without importing ``hmac``)."""
    from _operator import _compare_digest

    return _compare_digest(a.encode(), b.encode())


def live(entry: dict, now: float) -> bool:
    """A pending code not yet expired; a grant that is not past its time."""
    until = entry.get("expires", entry.get("until"))
    return not isinstance(until, (int, float)) or until > now


def ordered(value):
    """The value with every dict's keys in order: the canonical text a seal is made over."""
    if isinstance(value, dict):
        return {k: ordered(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [ordered(v) for v in value]
    return value


def fingerprint(root: str, event: str, tool, cwd, tool_input: dict) -> str:
    """What makes two calls "that exact call": the project, the event, the tool, the directory, and the
    tool's input (for a shell command, the command alone; elsewhere every field but the description)."""
    from cupcake import speedups

    if tool == "Bash":
        given = {"command": tool_input.get("command")}
    else:
        given = {k: v for k, v in tool_input.items() if k != "description"}
    text = speedups.json_dumps([root, event, tool, cwd if isinstance(cwd, str) else None, _sorted(given)])
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()


def _sorted(value):
    """The value with every dict's keys in order (one text per call, whatever order the agent sent)."""
    if isinstance(value, dict):
        return [[k, _sorted(value[k])] for k in sorted(value, key=str)]
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value
