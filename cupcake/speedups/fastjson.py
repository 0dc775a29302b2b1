"""JSON for the hot path without importing ``json`` (which imports ``re`` and ``enum``: about
9 ms of every hook call). It drives the standard library's own C scanner and string encoder,
so the results are exactly ``json.loads`` and ``json.dumps(..., ensure_ascii=False,
separators=(",", ":"))``; where ``_json`` lacks them, it falls back to ``json``."""

from __future__ import annotations

try:
    from _json import encode_basestring as _encode_str
    from _json import make_scanner as _make_scanner
except ImportError:  # pragma: no cover - interpreters without the C accelerator
    _make_scanner = None

_WS = " \t\n\r"


class _Context:
    """The attributes the C scanner reads from its context (those of ``json.JSONDecoder``)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo: dict = {}

    @staticmethod
    def parse_constant(name):
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


_scan = _make_scanner(_Context()) if _make_scanner else None


def loads(data):
    """Parse a JSON document (bytes must be UTF-8). Raises ``ValueError`` on bad input."""
    if isinstance(data, (bytes, bytearray)):
        data = bytes(data).decode("utf-8-sig")
    if _scan is None:  # pragma: no cover
        import json

        return json.loads(data)
    start = 0
    while start < len(data) and data[start] in _WS:
        start += 1
    try:
        value, end = _scan(data, start)
    except StopIteration as stop:
        raise ValueError(f"Expecting value: char {stop.value}") from None
    except SystemError:
        _explain(data)
    while end < len(data) and data[end] in _WS:
        end += 1
    if end != len(data):
        raise ValueError(f"Extra data: char {end}")
    return value


def _explain(text: str):
    """The C scanner reports a syntax error through ``json.decoder``, and only when that module is
    already imported: otherwise it raises a meaningless SystemError. Bad input is rare, so parse it
    again with ``json`` itself for the real message (a ``ValueError``)."""
    import json

    json.loads(text)
    raise ValueError("not valid JSON")  # pragma: no cover - json accepted what the scanner refused


def loads_line(data: bytes):
    """One line of a JSON-lines file (UTF-8, no BOM): ``loads`` with less per-call work, for long logs."""
    if _scan is None:  # pragma: no cover
        return loads(data)
    text = data.decode("utf-8").strip(_WS)
    try:
        value, end = _scan(text, 0)
    except StopIteration as stop:
        raise ValueError(f"Expecting value: char {stop.value}") from None
    except SystemError:
        _explain(text)
    if end != len(text):
        raise ValueError(f"Extra data: char {end}")
    return value


def dumps(value) -> str:
    """Compact JSON, non-ASCII kept as is (the answer's text is UTF-8)."""
    if _make_scanner is None:  # pragma: no cover
        import json

        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return _dump(value)


def _dump(value) -> str:
    if isinstance(value, str):
        return _encode_str(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ",".join(f"{_encode_str(str(k))}:{_dump(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_dump(v) for v in value) + "]"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("NaN and infinities are not JSON")
        return float.__repr__(value)
    raise TypeError(f"{type(value).__name__} is not JSON")
