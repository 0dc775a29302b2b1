"""Literals every match of a regex requires (computed once, at compile time).

A run checks ``all(lit in text for lit in literals)`` before compiling a pattern, so the
policies that cannot match never cost a ``re.compile``. Conservative: when in doubt, no literals.
"""

from __future__ import annotations

import re

# The regex parser's own tree (private modules, not in typeshed; Python >= 3.11 has them here).
from re import _constants as _c  # type: ignore[attr-defined]
from re import _parser as _p  # type: ignore[attr-defined]

_MIN = 2  # shorter literals do not filter anything worth the check (for a tool name, a secret's anchor)


def required_literals(pattern: str, shortest: int = _MIN) -> tuple[str, ...]:
    try:
        parsed = _p.parse(pattern)
    except Exception:
        return ()
    flags = parsed.state.flags
    if flags & (re.IGNORECASE | re.VERBOSE):
        return ()
    found: list[str] = []
    _walk(list(parsed), found)
    return _longest(found, shortest)


def _longest(found, shortest: int) -> tuple[str, ...]:
    # Longest first, ties by text: the compiled form must not depend on set order (string hashes
    # differ per process), or the cache check would see a forgery where there is none.
    unique = sorted({f for f in found if len(f) >= shortest}, key=lambda f: (-len(f), f))
    return tuple(unique[:3])


def required_pieces(pattern: str) -> tuple:
    """The literals every match holds (up to three, one character at least: a check costs far less
    than a compile), and then (up to two) alternations every match passes through whose branches each
    require a literal: a tuple of those literals, one of which a match holds. A run skips the pattern
    when a literal is missing or none of a tuple's is there (``(sudo|doas|su)``: a harmless ``ls -la``
    compiles none of the pack rules about them).

    A pattern that ignores case as a whole (``(?i)…``): its pieces made only of ASCII characters,
    folded as ``evaluate.patterns.folded`` folds a text, after a leading None that tells the run to
    look for them in the folded text (one character for one, where ``(?i)`` matches an ASCII letter)."""
    try:
        parsed = _p.parse(pattern)
    except Exception:
        return ()
    flags = parsed.state.flags
    if flags & re.VERBOSE:
        return ()
    fold = bool(flags & re.IGNORECASE)
    found: list[str] = []
    sets: list[tuple[str, ...]] = []
    _walk(list(parsed), found, sets, 1, fold)
    if fold:
        from cupcake.evaluate.patterns import folded

        found = [folded(f) for f in found if f.isascii()]
        sets = [tuple(sorted({folded(m) for m in s})) for s in sets if all(m.isascii() for m in s)]
    chosen = sorted(set(sets), key=lambda s: (-min(len(m) for m in s), len(s), s))
    pieces = _longest(found, 1) + tuple(chosen[:2])
    return (None,) + pieces if fold and pieces else pieces


def _branch(alternatives, shortest: int, fold: bool) -> tuple[str, ...] | None:
    """The longest literal each branch requires (so one of them is in every match), or None when a
    branch requires none."""
    picks = set()
    for alternative in alternatives:
        found: list[str] = []
        _walk(list(alternative), found, None, shortest, fold)
        best = max((f for f in found if len(f) >= shortest), key=lambda f: (len(f), f), default=None)
        if best is None:
            return None
        picks.add(best)
    return tuple(sorted(picks)) if picks else None


def _walk(items, found: list[str], sets: list | None = None, shortest: int = _MIN, fold: bool = False) -> None:
    """Collect runs of literals that are required in sequence ``items`` (and, with ``sets``, the
    alternations every match of ``items`` passes through, each as the literals one of which it holds).
    ``fold``: the pattern ignores case, and its literals will be folded: groups that change the case
    rule are walked too (a literal matched exactly is in the folded text folded)."""
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
            if fold or not add_flags & (re.IGNORECASE | re.VERBOSE):
                _walk(list(arg[3]), found, sets, shortest, fold)
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            low, _high, sub = arg
            if low >= 1:
                _walk(list(sub), found, sets, shortest, fold)
        elif op is getattr(_c, "ATOMIC_GROUP", None):
            _walk(list(arg), found, sets, shortest, fold)
        elif op is _c.BRANCH and sets is not None:
            one_of = _branch(arg[1], shortest, fold)
            if one_of is not None:
                sets.append(one_of)
        # anything else (classes, assertions, anchors) requires no particular literal
    if run:
        found.append("".join(run))


_MAX_LEAD = 64  # the most characters a match may start before its anchor (match attempts per occurrence)


def anchor(pattern: str) -> tuple:
    """(literal, fewest, most): a run of literals at the top level of ``pattern`` that every match
    holds, with the fewest and most characters a match can hold before it; () when there is none
    (a literal only inside a group or a branch, or an unbounded or long lead). A match then starts
    between ``most`` and ``fewest`` characters before some occurrence of the literal, so the scan
    tries the pattern at those few places instead of at every position of a large text. Under
    ``(?i)`` the literal is lower-case ASCII, for an ASCII text only (where lower-casing maps
    position to position and ``(?i)`` matches nothing but the two cases)."""
    try:
        parsed = _p.parse(pattern)
    except Exception:
        return ()
    icase = bool(parsed.state.flags & re.IGNORECASE)
    best: tuple = ()
    lo = hi = 0
    run: list[str] = []
    run_lo = run_hi = 0
    for item in [*parsed, (None, None)]:
        op, arg = item
        if op is _c.LITERAL:
            if not run:
                run_lo, run_hi = lo, hi
            run.append(chr(arg))
            lo += 1
            hi += 1
            continue
        if run:
            text = "".join(run)
            if icase:
                text = text.lower() if text.isascii() else ""
            if len(text) >= _MIN and run_hi <= _MAX_LEAD and (not best or len(text) > len(best[0])):
                best = (text, run_lo, run_hi)
            run = []
        if op is None:
            break
        low, high = _p.SubPattern(parsed.state, [item]).getwidth()
        lo += low
        hi += high
        if hi > _MAX_LEAD:
            break  # no later literal has a bounded lead
    return best


def starts(pattern: str) -> tuple:
    """The literals one of which every match of ``pattern`` starts with (a run of literals at its
    head, or one per branch of a group at its head), shortest form kept; () when a match could start
    otherwise. Under ``(?i)`` they are lower-case and cut before their first letter that is not ASCII:
    the scan looks for them in the text folded as ``(?i)`` folds ASCII letters, then tries the
    pattern only where one occurs (detect-secrets' keyword patterns, a choice of names at the head)."""
    try:
        parsed = _p.parse(pattern)
    except Exception:
        return ()
    icase = bool(parsed.state.flags & re.IGNORECASE)
    found = _heads(list(parsed))
    if not found:
        return ()
    out = set()
    for head in found:
        if icase:
            ascii_head = ""
            for ch in head:
                if not ch.isascii():
                    break
                ascii_head += ch.lower()
            head = ascii_head
        if not head:
            return ()
        out.add(head)
    # an occurrence of a longer one is an occurrence of its prefix: keep the prefix alone
    kept = [h for h in out if not any(o != h and h.startswith(o) for o in out)]
    return tuple(sorted(kept))


def _heads(items) -> set | None:
    """The literal runs a match of ``items`` starts with, or None when one might start otherwise."""
    if not items:
        return None
    op, arg = items[0]
    if op is _c.LITERAL:
        run = ""
        for op2, arg2 in items:
            if op2 is not _c.LITERAL:
                break
            run += chr(arg2)
        return {run}
    if op is _c.SUBPATTERN:
        _group, add_flags, del_flags, sub = arg
        if (add_flags | del_flags) & (re.IGNORECASE | re.VERBOSE):
            return None  # the head's letters fold otherwise than the pattern's
        return _heads(list(sub))
    if op is _c.BRANCH:
        found: set = set()
        for alternative in arg[1]:
            heads = _heads(list(alternative))
            if not heads:
                return None
            found |= heads
        return found
    return None
