"""Regexes without importing ``re`` on the warm path.

At compile time (cold) each pattern is parsed and compiled to its SRE program with the standard
library's own compiler; the program is cached with the policies (the cache is keyed by the exact
Python version). A warm run hands it to ``_sre.compile``, exactly what ``re.compile`` does last,
and ``_sre`` validates the program before using it. Anything unexpected falls back to ``re``.
Importing ``re`` (with ``enum``, ``functools``…) costs about 7 ms of a hook call."""

from __future__ import annotations


def sre_form(pattern: str):
    """(flags, code, groups, groupindex, indexgroup) for ``pattern``, or None (cold path)."""
    try:
        from re import _compiler, _parser

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


def compile_pattern(pattern: str, forms: dict):
    form = forms.get(pattern)
    if form is not None:
        try:
            return from_form(pattern, form)
        except Exception:
            pass
    import re

    return re.compile(pattern)
