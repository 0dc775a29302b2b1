"""Literals every match of a regex requires (computed once, at compile time).

A run checks ``all(lit in text for lit in literals)`` before compiling a pattern, so the
policies that cannot match never cost a ``re.compile``. Conservative: when in doubt, no literals.
"""

from __future__ import annotations

import re

# The regex parser's own tree (private modules, not in typeshed; Python >= 3.11 has them here).
from re import _constants as _c  # type: ignore[attr-defined]
from re import _parser as _p  # type: ignore[attr-defined]

_MIN = 2  # shorter literals do not filter anything worth the check


def required_literals(pattern: str) -> tuple[str, ...]:
    try:
        parsed = _p.parse(pattern)
    except Exception:
        return ()
    flags = parsed.state.flags
    if flags & (re.IGNORECASE | re.VERBOSE):
        return ()
    found: list[str] = []
    _walk(list(parsed), found)
    # Longest first, ties by text: the compiled form must not depend on set order (string hashes
    # differ per process), or the cache check would see a forgery where there is none.
    unique = sorted({f for f in found if len(f) >= _MIN}, key=lambda f: (-len(f), f))
    return tuple(unique[:3])


def _walk(items, found: list[str]) -> None:
    """Collect runs of literals that are required in sequence ``items``."""
    run: list[str] = []
    for op, arg in items:
        if op is _c.LITERAL:
            run.append(chr(arg))
            continue
        if run:
            found.append("".join(run))
            run = []
        if op is _c.SUBPATTERN:
            # (group, add_flags, del_flags, pattern)
            add_flags = arg[1]
            if not add_flags & (re.IGNORECASE | re.VERBOSE):
                _walk(list(arg[3]), found)
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            low, _high, sub = arg
            if low >= 1:
                _walk(list(sub), found)
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            _walk(list(arg), found)
        # anything else (branches, classes, assertions, anchors) requires no particular literal
    if run:
        found.append("".join(run))
