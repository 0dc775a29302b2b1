"""Where a TOML syntax error really is (cold path).

The parser reports where it noticed the problem. For an array or inline table left open, that is
the next line that cannot be a value: one line (or more) after the place to fix. So when the error
falls inside an array opened on an earlier line, the error is reported at the opening line."""

from __future__ import annotations


def where_and_why(text: str, exc) -> tuple:
    """(line, message) for a ``tomli.TOMLDecodeError`` raised on ``text``."""
    line = getattr(exc, "lineno", None)
    why = getattr(exc, "msg", None) or str(exc)
    pos = getattr(exc, "pos", None)
    if not isinstance(pos, int) or line is None:
        return line, why
    opened = _open_brackets(text, pos)
    earlier = [(char, at) for char, at in opened if at < line]
    if not earlier:
        return line, why
    char, at = earlier[-1]
    what = "array" if char == "[" else "inline table"
    closer = "]" if char == "[" else "}"
    return at, f"{why} on line {line}: the {what} opened on line {at} is not closed (a `{closer}` is missing)"


def _open_brackets(text: str, end: int) -> list:
    """The value brackets (``[`` of an array, ``{`` of an inline table) still open at ``end``,
    each with its line; strings, comments and table headers are skipped."""
    stack: list = []
    for char, line in _value_brackets(text, end):
        if char in "[{":
            stack.append((char, line))
        elif stack:
            stack.pop()
    return stack


def too_deep(text: str, limit: int):
    """The line where arrays and inline tables are first nested more than ``limit`` deep, or None.
    Cheap when the file has fewer brackets than that in all."""
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for char, line in _value_brackets(text, len(text)):
        if char in "[{":
            depth += 1
            if depth > limit:
                return line
        elif depth:
            depth -= 1
    return None


def _value_brackets(text: str, end: int):
    """Each bracket of a value (``[``, ``{``, ``]``, ``}``) before ``end``, with its line; strings,
    comments and table headers are skipped."""
    line = 1
    i = 0
    depth = 0
    at_line_start = True
    while i < min(end, len(text)):
        c = text[i]
        if c == "\n":
            line += 1
            at_line_start = True
            i += 1
            continue
        if c in " \t\r":
            i += 1
            continue
        if c == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        if c in "\"'":
            quote = c * 3 if text.startswith(c * 3, i) else c
            j = i + len(quote)
            while j < len(text) and not text.startswith(quote, j):
                if text[j] == "\\" and c == '"':
                    j += 1
                elif text[j] == "\n":
                    if len(quote) == 1:
                        break
                    line += 1
                j += 1
            i = j + len(quote)
            at_line_start = False
            continue
        if c == "[" and at_line_start and not depth:  # a table header: [table] or [[array of tables]]
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        at_line_start = False
        if c in "[{":
            depth += 1
            yield c, line
        elif c in "]}" and depth:
            depth -= 1
            yield c, line
        i += 1
