"""Records as a readable table with fixed columns (so ``--follow`` can add rows as they come)."""

from __future__ import annotations

_INPUT_KEYS = ("command", "file_path", "path", "url", "pattern", "query", "prompt", "description", "subagent_type")


def cut(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def input_summary(record: dict) -> str:
    given = record.get("input")
    if not isinstance(given, dict):
        given = {}
    for key in _INPUT_KEYS:
        if isinstance(given.get(key), str):
            return given[key]
    return ""


def policy_cell(record: dict) -> str:
    decided = record.get("policy")
    matched = [m for m in record.get("matched") or () if isinstance(m, str)]
    first = decided if isinstance(decided, str) else (matched[0] if matched else "")
    others = len([m for m in matched if m != first])
    return f"{first} +{others}" if others else first


def when(record: dict) -> str:
    stamp = str(record.get("time") or "")
    return stamp[:19].replace("T", " ") if len(stamp) >= 19 else stamp


# (header, width, how a record fills the cell); INPUT takes the rest of the line.
COLUMNS = (
    ("TIME (UTC)", 19, when),
    ("SESSION", 8, lambda r: str(r.get("session") or "")[:8]),  # a prefix, like a short git hash
    ("EVENT", 16, lambda r: r.get("event") or ""),
    ("TOOL", 10, lambda r: r.get("tool") or ""),
    ("DECISION", 8, lambda r: r.get("decision") or ""),
    ("POLICY", 24, policy_cell),
)
MIN_INPUT = 20


def header(width: int) -> str:
    line = "  ".join([name.ljust(size) for name, size, _fill in COLUMNS] + ["INPUT"])
    return line[:width] if width else line


def row(record: dict, width: int) -> str:
    """One record; ``width`` 0 (not a terminal) cuts nothing, so a pipe gets every character."""
    if not width:
        cells = [" ".join(str(fill(record)).split()).ljust(size) for _name, size, fill in COLUMNS]
        return "  ".join(cells + [" ".join(input_summary(record).split())]).rstrip()
    cells = [cut(fill(record), size).ljust(size) for _name, size, fill in COLUMNS]
    used = sum(size + 2 for _name, size, _fill in COLUMNS)
    cells.append(cut(input_summary(record), max(MIN_INPUT, width - used)))
    return "  ".join(cells).rstrip()


def simple_table(headers, rows) -> list[str]:
    """Left-aligned text columns, numbers right-aligned, sized to their content (for ``stats``)."""
    widths = [len(h) for h in headers]
    for r in rows:
        for i, cell in enumerate(r):
            widths[i] = max(widths[i], len(str(cell)))
    out = []
    for r in [headers] + list(rows):
        cells = []
        for i, cell in enumerate(r):
            text = str(cell)
            cells.append(text.rjust(widths[i]) if isinstance(cell, (int, float)) else text.ljust(widths[i]))
        out.append("  ".join(cells).rstrip())
    return out
