"""Where things are in a policy file's text (tomli gives no positions): the line of each
``[[policy]]`` header and of a key inside it."""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*\[\[\s*policy\s*\]\]")
_TABLE = re.compile(r"^\s*\[")


class FileLines:
    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.headers = [i + 1 for i, line in enumerate(self.lines) if _HEADER.match(line)]

    def policy(self, index: int):
        """Line of the ``index``-th ``[[policy]]`` header (1-based), or None."""
        return self.headers[index] if index < len(self.headers) else None

    def key(self, index: int, key: str):
        """Line of ``key = …`` inside the ``index``-th policy, else the policy's own line."""
        start = self.policy(index)
        if start is None:
            return None
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=|[{{,]\s*{re.escape(key)}\s*=")
        for number in range(start + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            if _TABLE.match(line):
                break
            if pattern.search(line):
                return number
        return start

    def top_key(self, key: str):
        """Line of a top-level or ``[settings]`` key."""
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        for number, line in enumerate(self.lines, 1):
            if pattern.match(line):
                return number
        return None

    def table_key(self, table: str, key: str | None = None):
        """Line of ``key = …`` inside the ``[table]`` header's table (or of the header itself);
        for a table written inline (``eval_feedback = { … }``), the line of that key."""
        header = re.compile(rf"^\s*\[\s*{re.escape(table)}\s*\]")
        for number, line in enumerate(self.lines, 1):
            if not header.match(line):
                continue
            if key is None:
                return number
            pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
            for inner in range(number + 1, len(self.lines) + 1):
                text = self.lines[inner - 1]
                if _TABLE.match(text):
                    break
                if pattern.match(text):
                    return inner
            return number
        return self.top_key(table.rsplit(".", 1)[-1])
