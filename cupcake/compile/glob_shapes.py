"""The shape of a glob's regex, worked out once at compile time (cold: ``re``'s own parser), so a warm
run matches the plain ones with string comparisons instead of compiling a regex
(``cupcake.evaluate.glob_match`` reads the shapes).

A regex is plain when its parsed form is a literal head, at most one gap, a literal tail, then ``\\Z``,
without IGNORECASE. The gap is ``.*`` (``.*?`` alike; with DOTALL it may hold anything, without it no
newline) or ``[^c]*`` (it may not hold ``c``): what the glob translations make of ``*`` and ``**``
(``pack_match.glob_regex``, ``fnmatch.translate``). The shapes, each as few objects as it can be (the
policy cache's head holds them, and every run unmarshals it):

| shape | ``re.match(pattern, text)`` holds when |
|---|---|
| a string | ``text`` is that string (a literal) |
| ``(head, tail, gap)`` | ``text`` starts with ``head`` and ends with ``tail``, which do not overlap, and what lies between holds no character of ``gap`` ("" for any character, "\\n" for ``.*`` without DOTALL, "/" for ``[^/]*``) |
| ``(pattern, pieces)`` | not plain: the regex itself, compiled only when the text holds its ``pieces`` (``literals.required_pieces``) |
"""

from __future__ import annotations

import re
from re import _constants as _c  # type: ignore[attr-defined]  # private, not in typeshed
from re import _parser as _p  # type: ignore[attr-defined]

from cupcake.compile.literals import required_pieces

_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT)  # greedy or lazy: the same texts match when the match is anchored
_END = None  # the token of ``\Z``; a literal is a one-character string, a gap a 1-tuple of what it may not hold


def shape(pattern: str):
    """``pattern``'s shape (see the module's table); a regex that does not parse keeps its text (the run
    compiles it and fails as it did before)."""
    plain = _plain(pattern)
    return plain if plain is not None else (pattern, required_pieces(pattern))


def regexes(shapes) -> list:
    """The patterns among ``shapes`` that a run compiles (their SRE programs go into the policy cache)."""
    return [s[0] for s in shapes if s.__class__ is tuple and len(s) == 2]


def _plain(pattern: str):
    try:
        parsed = _p.parse(pattern)
    except Exception:
        return None
    flags = parsed.state.flags
    if flags & re.IGNORECASE:
        return None
    tokens: list = []
    if not _flatten(list(parsed), bool(flags & re.DOTALL), tokens) or tokens[-1:] != [_END]:
        return None
    tokens.pop()
    gaps = [i for i, t in enumerate(tokens) if t.__class__ is tuple]
    if _END in tokens or len(gaps) > 1:
        return None
    if not gaps:
        return "".join(tokens)
    at = gaps[0]
    return ("".join(tokens[:at]), "".join(tokens[at + 1 :]), tokens[at][0])


def _flatten(items, dotall: bool, tokens: list) -> bool:
    """Append ``items``' tokens to ``tokens``; False when an item is none of a literal, a gap, ``\\Z`` or a
    group of those."""
    for op, arg in items:
        if op is _c.LITERAL:
            tokens.append(chr(arg))
        elif op is _c.AT and arg is _c.AT_END_STRING:
            tokens.append(_END)
        elif op is _c.SUBPATTERN:
            _group, add_flags, del_flags, sub = arg
            if add_flags & re.IGNORECASE:
                return False
            inner = (dotall or bool(add_flags & re.DOTALL)) and not del_flags & re.DOTALL
            if not _flatten(list(sub), inner, tokens):
                return False
        elif op in _REPEATS:
            low, high, sub = arg
            if low != 0 or high != _c.MAXREPEAT or len(sub) != 1:
                return False
            ((one, what),) = list(sub)
            if one is _c.ANY:
                tokens.append(("" if dotall else "\n",))
            elif one is _c.NOT_LITERAL:
                tokens.append((chr(what),))
            else:
                return False
        else:
            return False
    return True
