"""The shims that keep ``cupcake run``'s start-up small, each a documented door into a C module the
standard library already loads, with a fallback to the ordinary module where the door is missing.

What each saves per hook call, measured with ``python -X importtime`` (cumulative import time, best of
nine, Python 3.11, this project's CI machine; a bare ``python -c pass`` in a venv is about 14 ms):

| shim | instead of | costs | saves |
|---|---|---|---|
| JSON via ``_json`` (C scanner and string encoder) | ``json`` (imports ``re``, ``enum``) | 0.2 ms | about 5.5 ms |
| regexes via cached SRE programs and ``_sre.compile`` | ``re`` (imports ``enum``, ``functools``) | 0.05 ms | about 4.5 ms |
| the deadline alarm via ``_signal`` (loaded at start-up) | ``signal`` (wraps it in enums) | 0 ms | about 3 ms |

JSON results are exactly ``json.loads`` and ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))``.
Regexes: at compile time (cold) each pattern is compiled to its SRE program with the standard library's
own compiler; the program is cached with the policies (the cache is keyed by the exact Python version).
A warm run hands it to ``_sre.compile``, exactly what ``re.compile`` does last, and ``_sre`` validates the
program before using it. Anything unexpected falls back to ``re``.
"""

from __future__ import annotations

import _signal

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call

if TYPE_CHECKING:
    from collections.abc import Callable

# ## JSON ############################################################################################

try:
    from _json import encode_basestring as _encode_str
    from _json import make_encoder as _make_encoder
    from _json import make_scanner as _make_scanner
except ImportError:  # pragma: no cover - interpreters without the C accelerator
    _make_scanner = None  # type: ignore[assignment,misc]  # typeshed knows only the C scanner (a class)

_WS = " \t\n\r"


MAX_INT_DIGITS = 4300  # Python's own limit for int(str): longer ones take quadratic time


class NumberTooLong(ValueError):
    """A JSON integer with more than ``MAX_INT_DIGITS`` digits."""


def _parse_int(text: str) -> int:
    if len(text) > MAX_INT_DIGITS:
        raise NumberTooLong(f"a number of {len(text)} digits (at most {MAX_INT_DIGITS} are read)")
    return int(text)


class _Context:
    """The attributes the C scanner reads from its context (those of ``json.JSONDecoder``)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int: Callable[[str], int] = int
    memo: dict = {}

    @staticmethod
    def parse_constant(name):
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


class _InputContext(_Context):
    """For input from outside (a hook event): a number too long is named, not a bare ValueError.
    Files Cupcake writes itself keep the C conversion (a Python call per number would slow long logs)."""

    parse_int = staticmethod(_parse_int)


# typeshed types the scanner's context as a scanner; the C code reads only the attributes above
_scan = _make_scanner(_Context()) if _make_scanner is not None else None  # type: ignore[arg-type]
_scan_input = _make_scanner(_InputContext()) if _make_scanner is not None else None  # type: ignore[arg-type]


_BOM = b"\xef\xbb\xbf"


def utf8_text(data: bytes) -> str:
    """``data.decode("utf-8-sig")`` (one leading byte order mark dropped) without that codec's module:
    "utf-8" is the interpreter's own, "utf-8-sig" a lookup and an import (0.2 ms of every hook call).
    A ``UnicodeDecodeError`` gives offsets in ``data``, as the codec's would."""
    if data[:3] != _BOM:
        return data.decode("utf-8")
    try:
        return data[3:].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnicodeDecodeError(exc.encoding, data, exc.start + 3, exc.end + 3, exc.reason) from None


def json_loads(data, from_outside: bool = False):
    """Parse a JSON document (bytes must be UTF-8). Raises ``ValueError`` on bad input, and
    ``RecursionError`` when it is nested too deep. ``from_outside``: an integer too long to convert
    raises ``NumberTooLong``."""
    if isinstance(data, (bytes, bytearray)):
        data = utf8_text(bytes(data))
    scan = _scan_input if from_outside else _scan
    if scan is None:  # pragma: no cover
        import json

        return json.loads(data, parse_int=_parse_int if from_outside else None)
    start = 0
    while start < len(data) and data[start] in _WS:
        start += 1
    try:
        value, end = scan(data, start)
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


def json_loads_line(data: bytes):
    """One line of a JSON-lines file (UTF-8, no BOM): ``loads`` with less per-call work, for long logs."""
    if _scan is None:  # pragma: no cover
        return json_loads(data)
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


def json_dumps(value) -> str:
    """Compact JSON, non-ASCII kept as is (the answer's text is UTF-8)."""
    if _encode is None:  # pragma: no cover
        import json

        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return "".join(_encode(value, 0))


def _not_json(value):
    raise TypeError(f"{type(value).__name__} is not JSON")


# json.dumps(ensure_ascii=False, separators=(",", ":"), allow_nan=False) without importing json: its C
# encoder, about 4x faster than one written in Python on a blocked call's approvals store.
_encode = (
    _make_encoder(None, _not_json, _encode_str, None, ":", ",", False, False, False)
    if _make_scanner is not None
    else None
)


# ## Regexes #########################################################################################


def sre_form(pattern: str):
    """(flags, code, groups, groupindex, indexgroup) for ``pattern``, or None (cold path)."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]  # private, not in typeshed

        parsed = _parser.parse(pattern, 0)
        code = _compiler._code(parsed, 0)
        groupindex = dict(parsed.state.groupdict)
        indexgroup = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        # plain ints: the flags are an IntFlag and the opcodes named int constants, which marshal refuses
        form = (int(parsed.state.flags), [int(c) for c in code], parsed.state.groups - 1, groupindex, tuple(indexgroup))
        from_form(pattern, form)  # proves this interpreter accepts it
        return form
    except Exception:
        return None


def from_form(pattern: str, form):
    """A compiled pattern object, as ``re.compile(pattern)`` would return it."""
    import _sre

    flags, code, groups, groupindex, indexgroup = form
    return _sre.compile(pattern, flags, code, groups, groupindex, indexgroup)


def pack_forms(forms: dict) -> dict:
    """Each form as its own marshal bytes (cold): a warm run unpacks only the programs it compiles, instead
    of the cache building every program's list of integers at load (most of a large cache's load time
    and memory)."""
    import marshal

    return {pattern: marshal.dumps(form) for pattern, form in forms.items()}


def compile_pattern(pattern: str, forms: dict):
    form = forms.get(pattern)
    if form is not None:
        try:
            if isinstance(form, bytes):
                import marshal  # built in, loaded at start-up

                form = marshal.loads(form)
            return from_form(pattern, form)
        except Exception:
            pass
    import re

    return re.compile(pattern)


# ## The deadline alarm ##############################################################################

SIGALRM = _signal.SIGALRM


def set_alarm(handler, seconds: float, repeat: float = 0) -> None:
    """Call ``handler(signum, frame)`` in ``seconds`` (real time), then every ``repeat`` seconds if given."""
    _signal.signal(_signal.SIGALRM, handler)
    _signal.setitimer(_signal.ITIMER_REAL, seconds, repeat)


def clear_alarm() -> None:
    _signal.setitimer(_signal.ITIMER_REAL, 0)


def hold_alarm(held: bool) -> None:
    """Hold (``True``) or release the alarm signal for this thread: Cupcake's own bookkeeping is not interrupted."""
    _signal.pthread_sigmask(_signal.SIG_BLOCK if held else _signal.SIG_UNBLOCK, [_signal.SIGALRM])
