"""What a sed script does beyond printing: the files its ``w``/``W`` commands and ``s///w`` flags
write, the files ``r``/``R`` read, and whether ``e`` (or ``s///e``) runs a command.
``scan(text) -> (writes, reads, runs)``; ``runs`` is a list of command texts, ``None`` standing
for "the pattern space" (a command the script builds at run time)."""

from __future__ import annotations

_ADDRESS = "0123456789$,~+! \t"


def scan(text: str):
    writes: list[str] = []
    reads: list[str] = []
    runs: list = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\n;{} \t" or ch in _ADDRESS:
            i += 1
            continue
        if ch == "/" or ch == "\\":  # an address /re/ or \cREc
            delim = "/" if ch == "/" else (text[i + 1] if i + 1 < n else "/")
            i = _skip_delimited(text, i + (1 if ch == "/" else 2), delim)
            continue
        if ch == "#":
            i = _line_end(text, i)
            continue
        i += 1
        if ch == "s":
            i, flags, target = _substitution(text, i)
            if "e" in flags:
                runs.append(None)
            if target is not None:
                writes.append(target)
        elif ch == "y":
            if i < n:
                delim = text[i]
                i = _skip_delimited(text, i + 1, delim)
                i = _skip_delimited(text, i, delim)
        elif ch in "wW":
            end = _line_end(text, i)
            writes.append(text[i:end].strip())
            i = end
        elif ch in "rR":
            end = _line_end(text, i)
            reads.append(text[i:end].strip())
            i = end
        elif ch == "e":
            end = _command_end(text, i)
            command = text[i:end].strip()
            runs.append(command or None)
            i = end
        elif ch in "aic":
            i = _text_end(text, i)
        elif ch in "btT:":
            i = _command_end(text, i)
        elif ch in "qQlLvF=dDgGhHnNpPxz":
            i = _command_end(text, i) if ch in "qQlLv" else i
    return writes, reads, runs


def _line_end(text: str, i: int) -> int:
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _command_end(text: str, i: int) -> int:
    end = i
    while end < len(text) and text[end] not in ";\n}":
        end += 1
    return end


def _text_end(text: str, i: int) -> int:
    """``a text`` / ``a\\`` + lines: to the end of the line (continued by a trailing backslash)."""
    while True:
        end = _line_end(text, i)
        if end > 0 and text[end - 1] == "\\" and end < len(text):
            i = end + 1
            continue
        return end


def _skip_delimited(text: str, i: int, delim: str) -> int:
    """Past the next unescaped ``delim`` (a bracket expression may hold it)."""
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == delim:
            return i + 1
        if ch == "\n":
            return i
        i += 1
    return n


def _substitution(text: str, i: int):
    """``s/re/rep/flags``: (index after it, the flags, the file of a ``w`` flag or None)."""
    if i >= len(text):
        return i, "", None
    delim = text[i]
    i = _skip_delimited(text, i + 1, delim)
    i = _skip_delimited(text, i, delim)
    start = i
    while i < len(text) and text[i] not in ";\n}w":
        i += 1
    flags = text[start:i]
    if i < len(text) and text[i] == "w":
        end = _line_end(text, i)
        return end, flags, text[i + 1 : end].strip()
    return i, flags, None
