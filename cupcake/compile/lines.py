"""Where things are in a policy file's text (tomli gives no positions): the line of each
``[[policy]]`` header, of a key inside it, and of an element or key nested in its value
(the third condition of ``conditions = [...]``, the ``type`` of a multi-line ``action = {...}``).

Only called once tomli has accepted the text, so the scanner may assume valid TOML; on anything
it does not follow it stops, and the caller falls back to the nearest enclosing line."""

from __future__ import annotations

import re
from bisect import bisect_right

_HEADER = re.compile(r"^\s*\[\[\s*policy\s*\]\]")
_TABLE = re.compile(r"^\s*\[")


class FileLines:
    def __init__(self, text: str):
        self.text = text
        self.lines = text.splitlines()
        self.headers = [i + 1 for i, line in enumerate(self.lines) if _HEADER.match(line)]
        self._starts: list[int] | None = None

    def policy(self, index: int):
        """Line of the ``index``-th ``[[policy]]`` header (1-based), or None."""
        return self.headers[index] if index < len(self.headers) else None

    def key(self, index: int, key: str):
        """Line of ``key = …`` inside the ``index``-th policy, else the policy's own line."""
        found = self._policy_key(index, key)
        return found[0] if found else self.policy(index)

    def at(self, index: int, path):
        """Line of ``path`` inside the ``index``-th policy: a key name, or a tuple such as
        ``("conditions", 2, "any", 0)`` or ``("action", "type")``. The deepest part that can be
        found wins: the element, else its key, else the ``[[policy]]`` header."""
        if isinstance(path, str):
            return self.key(index, path)
        found = self._policy_key(index, str(path[0]))
        if not found:
            return self.policy(index)
        return self._descend(found, path[1:])

    def top_key(self, key: str):
        """Line of a top-level or ``[settings]`` key."""
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for number, line in enumerate(self.lines, 1):
            if pattern.match(line):
                return number
        return None

    def table_key(self, table: str, key: str | None = None):
        """Line of ``key = …`` (bare or quoted) inside the ``[table]`` header's table (or of the header itself);
        for a table written inline (``eval_feedback = { … }``), the line of that key."""
        header = re.compile(rf"^\s*\[\s*{re.escape(table)}\s*\]")
        for number, line in enumerate(self.lines, 1):
            if not header.match(line):
                continue
            if key is None:
                return number
            name = re.escape(key)
            pattern = re.compile(rf"""^\s*(?:{name}|"{name}"|'{name}')\s*=""")  # bare or quoted
            for inner in range(number + 1, len(self.lines) + 1):
                text = self.lines[inner - 1]
                if _TABLE.match(text):
                    break
                if pattern.match(text):
                    return inner
            return number
        return self.top_key(table.rsplit(".", 1)[-1])

    def top(self, path):
        """Line of a top-level key's nested element, e.g. ``("imports", 1)``."""
        pattern = re.compile(rf"^\s*{re.escape(str(path[0]))}\s*=")
        for number, line in enumerate(self.lines, 1):
            match = pattern.match(line)
            if match:
                return self._descend((number, self._offset(number) + match.end()), path[1:])
            if _TABLE.match(line):
                break
        return None

    # internals ------------------------------------------------------------------------------

    def _policy_key(self, index: int, key: str):
        """(line, offset just after the ``=``) of ``key`` in the policy, or None."""
        start = self.policy(index)
        if start is None:
            return None
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=|[{{,]\s*{re.escape(key)}\s*=")
        subtable = re.compile(rf"^\s*\[\s*policy\s*\.\s*{re.escape(key)}\s*\]")
        for number in range(start + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            if _TABLE.match(line):
                if subtable.match(line):  # [policy.action] written as its own table
                    return (number, None)
                break
            match = pattern.search(line)
            if match:
                return (number, self._offset(number) + match.end())
        return None

    def _descend(self, found, rest):
        line, offset = found
        if not rest or offset is None:
            return line
        try:
            tree = _Scanner(self.text).value(offset)
        except (IndexError, ValueError):
            return line
        for part in rest:
            if isinstance(part, int) and isinstance(tree, _Array) and part < len(tree.items):
                offset, tree = tree.items[part]
            elif isinstance(part, str) and isinstance(tree, _Table) and part in tree.keys:
                offset, tree = tree.keys[part]
            else:
                break
            line = self._line_of(offset)
        return line

    def _offset(self, number: int) -> int:
        """Character offset of the start of line ``number`` (1-based)."""
        if self._starts is None:
            starts, pos = [0], 0
            for line in self.text.splitlines(keepends=True):
                pos += len(line)
                starts.append(pos)
            self._starts = starts
        return self._starts[number - 1]

    def _line_of(self, offset: int) -> int:
        self._offset(1)
        assert self._starts is not None  # _offset(1) filled it
        return bisect_right(self._starts, offset)


class _Array:
    __slots__ = ("items",)

    def __init__(self):
        self.items = []  # (offset, subtree)


class _Table:
    __slots__ = ("keys",)

    def __init__(self):
        self.keys = {}  # first key part -> (offset of the key, subtree)


class _Scanner:
    """A TOML value reader that records where each array element and inline-table key starts."""

    def __init__(self, text: str):
        self.text = text

    def _skip(self, pos: int, newlines: bool) -> int:
        text = self.text
        while pos < len(text):
            ch = text[pos]
            if ch in " \t" or (newlines and ch in "\r\n"):
                pos += 1
            elif ch == "#" and newlines:
                while pos < len(text) and text[pos] != "\n":
                    pos += 1
            else:
                break
        return pos

    def value(self, pos: int):
        return self._value(self._skip(pos, False))[0]

    def _value(self, pos: int):
        """(subtree or None for a scalar, position after the value)."""
        text = self.text
        ch = text[pos]
        if ch == "[":
            return self._array(pos + 1)
        if ch == "{":
            return self._table(pos + 1)
        if ch in "\"'":
            return None, self._string(pos)
        while pos < len(text) and text[pos] not in ",]}\n\r#":
            pos += 1
        return None, pos

    def _string(self, pos: int) -> int:
        text = self.text
        quote = text[pos]
        if text.startswith(quote * 3, pos):
            end = text.index(quote * 3, pos + 3)
            while text.startswith(quote, end + 3):  # up to two quotes may close the string
                end += 1
            if quote == '"':
                while _escaped(text, end):
                    end = text.index(quote * 3, end + 1)
            return end + 3
        pos += 1
        while text[pos] != quote:
            pos += 2 if (quote == '"' and text[pos] == "\\") else 1
        return pos + 1

    def _array(self, pos: int):
        node = _Array()
        while True:
            pos = self._skip(pos, True)
            if self.text[pos] == "]":
                return node, pos + 1
            start = pos
            sub, pos = self._value(pos)
            node.items.append((start, sub))
            pos = self._skip(pos, True)
            if self.text[pos] == ",":
                pos += 1
            elif self.text[pos] != "]":
                raise ValueError("unexpected text in an array")

    def _table(self, pos: int):
        node = _Table()
        text = self.text
        while True:
            pos = self._skip(pos, True)
            if text[pos] == "}":
                return node, pos + 1
            start = pos
            key, pos = self._key(pos)
            pos = self._skip(pos, False)
            if text[pos] != "=":
                raise ValueError("expected = in an inline table")
            pos = self._skip(pos + 1, False)
            sub, pos = self._value(pos)
            node.keys.setdefault(key, (start, sub))
            pos = self._skip(pos, True)
            if text[pos] == ",":
                pos += 1
            elif text[pos] != "}":
                raise ValueError("unexpected text in an inline table")

    def _key(self, pos: int):
        """The first part of a (possibly dotted, possibly quoted) key, and the position after it all."""
        text = self.text
        first = None
        while True:
            pos = self._skip(pos, False)
            if text[pos] in "\"'":
                end = self._string(pos)
                part = text[pos + 1 : end - 1]
            else:
                end = pos
                while end < len(text) and (text[end].isalnum() or text[end] in "_-"):
                    end += 1
                part = text[pos:end]
            first = part if first is None else first
            pos = self._skip(end, False)
            if text[pos] != ".":
                return first, pos
            pos += 1


def _escaped(text: str, end: int) -> bool:
    """Whether the quote at ``end`` is escaped by an odd run of backslashes."""
    count = 0
    while end - 1 - count >= 0 and text[end - 1 - count] == "\\":
        count += 1
    return count % 2 == 1
