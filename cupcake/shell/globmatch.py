"""Shell-style path patterns without ``re``: ``*``, ``?``, ``[abc]``, ``[!a-z]`` within one path
component, ``**`` for any number of directories. A name starting with ``.`` is only matched by a
pattern component that starts with ``.`` too, as in the shell and Python's ``glob``.

The same matcher expands ``imports`` (cold) and decides whether a file an agent writes would be
imported (warm), so the two can never disagree."""

from __future__ import annotations

MAGIC = "*?["


def has_magic(text: str) -> bool:
    return any(ch in text for ch in MAGIC)


def match_name(pattern: str, name: str) -> bool:
    """Whether one path component ``name`` matches one pattern component."""
    if name.startswith(".") and not pattern.startswith("."):
        return False
    return _match(pattern, 0, name, 0)


def match_path(parts, names) -> bool:
    """Whether the path components ``names`` match the pattern components ``parts``."""
    if not parts:
        return not names
    head = parts[0]
    if head == "**":
        for skip in range(len(names) + 1):
            if skip and names[skip - 1].startswith("."):
                break
            if match_path(parts[1:], names[skip:]):
                return True
        return False
    return bool(names) and match_name(head, names[0]) and match_path(parts[1:], names[1:])


def could_lead(parts, names) -> bool:
    """Whether the folder ``names`` could hold, at some depth, a path matching ``parts`` (a folder an
    import would scan: making it, or flooding it with folders, changes what is imported)."""
    if not names:
        return bool(parts)
    if not parts:
        return False
    head = parts[0]
    if head == "**":
        return not any(name.startswith(".") for name in names)  # ``**`` never enters hidden folders
    if len(parts) == 1:
        return False  # the last component names files
    return match_name(head, names[0]) and could_lead(parts[1:], names[1:])


def _match(p: str, i: int, s: str, j: int) -> bool:
    star_i = star_j = -1
    while j < len(s):
        if i < len(p):
            ch = p[i]
            if ch == "*":
                star_i, star_j = i, j
                i += 1
                continue
            if ch == "?":
                i += 1
                j += 1
                continue
            if ch == "[":
                end, ok = _klass(p, i, s[j])
                if end is not None:
                    if ok:
                        i, j = end, j + 1
                        continue
                elif s[j] == "[":  # an unclosed "[" is a literal
                    i, j = i + 1, j + 1
                    continue
            elif ch == s[j]:
                i += 1
                j += 1
                continue
        if star_i < 0:
            return False
        star_j += 1
        i, j = star_i + 1, star_j
    while i < len(p) and p[i] == "*":
        i += 1
    return i == len(p)


def _klass(p: str, i: int, ch: str):
    """(position after the ``[...]`` class at ``i``, whether ``ch`` is in it); (None, False) if unclosed."""
    k = i + 1
    negate = k < len(p) and p[k] in "!^"
    if negate:
        k += 1
    start = k
    found = False
    while k < len(p) and (p[k] != "]" or k == start):
        if k + 2 < len(p) and p[k + 1] == "-" and p[k + 2] != "]":
            if p[k] <= ch <= p[k + 2]:
                found = True
            k += 3
        else:
            if p[k] == ch:
                found = True
            k += 1
    if k >= len(p):
        return None, False
    return k + 1, found != negate
