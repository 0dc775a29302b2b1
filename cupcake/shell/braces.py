"""Brace expansion (``a{b,c}``, ``{1..10}``), as bash does it before any other expansion: a word's
parts become the list of part lists it expands to, bounded by ``MAX_BRACE`` (past it, the braced span
is one unknown part). ``words.expand`` loads it for a word that holds braces."""

from __future__ import annotations

from cupcake.shell.limits import MAX_BRACE


def expand_braces(parts, ctx):
    """Brace-expand a word's parts: a list of part lists (bounded by ``MAX_BRACE``)."""
    units: list = []
    for part in parts:
        if part[0] == "u":
            units.extend(("u", ch) for ch in part[1])
        else:
            units.append(part)
    if sum(1 for u in units if u == ("u", "{")) > 64:
        return [_overflow(units)]
    out: list = []
    if not _expand_units(units, out, ctx):
        return [_overflow(units)]
    return [_merge(u) for u in out]


def _expand_units(units, out: list, ctx) -> bool:
    """Append every expansion of ``units`` to ``out``; False past the bound."""
    if not ctx.budget.spend(len(units)):
        return False
    i = 0
    n = len(units)
    while i < n:
        if units[i] == ("u", "{") and not (i and units[i - 1] == ("u", "$")):
            group = _group(units, i)
            if group is not None:
                end, alternatives = group
                if alternatives is None:
                    return False
                prefix, suffix = units[:i], units[end + 1 :]
                for alt in alternatives:
                    if not _expand_units(prefix + alt + suffix, out, ctx):
                        return False
                    if len(out) > MAX_BRACE:
                        return False
                return True
        i += 1
    out.append(units)
    return len(out) <= MAX_BRACE


def _group(units, i):
    """The brace group opening at ``i``: (closing index, alternatives or None past the bound),
    or None when it is not a group (no comma, no valid sequence)."""
    depth = 0
    commas: list[int] = []
    for j in range(i + 1, len(units)):
        u = units[j]
        if u[0] != "u":
            continue
        ch = u[1]
        if ch == "\\":
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            if depth:
                depth -= 1
                continue
            if commas:
                bounds = [i] + commas + [j]
                return j, [units[bounds[k] + 1 : bounds[k + 1]] for k in range(len(bounds) - 1)]
            inner = units[i + 1 : j]
            if all(x[0] == "u" for x in inner):
                seq = _sequence("".join(x[1] for x in inner))
                if seq is not None:
                    return j, (None if seq is False else [[("u", s)] for s in seq])
            return None
        elif ch == "," and depth == 0:
            commas.append(j)
    return None


def _sequence(text: str):
    """``a..e`` / ``1..10`` / ``1..10..2``: the items, False when too many, None if not a sequence."""
    bits = text.split("..")
    if len(bits) not in (2, 3):
        return None
    step = 1
    if len(bits) == 3:
        if not _is_int(bits[2]):
            return None
        step = abs(int(bits[2])) or 1
    a, b = bits[0], bits[1]
    if _is_int(a) and _is_int(b):
        lo, hi = int(a), int(b)
        if abs(hi - lo) // step + 1 > MAX_BRACE:
            return False
        width = (
            max(len(a), len(b))
            if (a.lstrip("-").startswith("0") and len(a.lstrip("-")) > 1)
            or (b.lstrip("-").startswith("0") and len(b.lstrip("-")) > 1)
            else 0
        )
        rng = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
        return [str(v).zfill(width) if width else str(v) for v in rng]
    if len(a) == 1 and len(b) == 1 and a.isascii() and b.isascii() and a.isalpha() and b.isalpha():
        lo, hi = ord(a), ord(b)
        rng = range(lo, hi + 1, step) if lo <= hi else range(lo, hi - 1, -step)
        return [chr(v) for v in rng]
    return None


def _is_int(text: str) -> bool:
    body = text[1:] if text[:1] in "+-" else text
    return body.isdigit() and body.isascii() and len(body) < 12


def _merge(units):
    parts: list = []
    for u in units:
        if u[0] == "u" and parts and parts[-1][0] == "u":
            parts[-1] = ("u", parts[-1][1] + u[1])
        else:
            parts.append(u)
    return parts


def _overflow(units):
    """Past the bound: the span from the first ``{`` to the last ``}`` becomes one unknown part."""
    first = next((k for k, u in enumerate(units) if u == ("u", "{")), 0)
    last = max((k for k, u in enumerate(units) if u == ("u", "}")), default=len(units) - 1)
    raw = "".join(u[1] if u[0] in "uq" else "" for u in units[first : last + 1])
    return _merge(units[:first]) + [("g", raw)] + _merge(units[last + 1 :])
