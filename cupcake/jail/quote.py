"""POSIX single quotes: the one quoting every POSIX shell (bash, zsh, dash, ksh) reads the same way,
with nothing inside expanded. A quote in the text closes the quotes, adds an escaped quote, and
opens them again. ``unquote`` is the strict inverse, for exactly what ``quote`` produces."""

from __future__ import annotations

from cupcake.jail.decide import quote  # noqa: F401 (here beside its inverse; defined where it is warm)


def unquote(word: str) -> str | None:
    """The text ``quote`` turned into ``word``, or None when ``word`` is not exactly such a quoting."""
    if len(word) < 2 or word[0] != "'" or word[-1] != "'":
        return None
    pieces = word[1:-1].split("'\\''")
    if any("'" in piece for piece in pieces):
        return None
    return "'".join(pieces)


def split_quoted(text: str) -> list[str] | None:
    """The words of ``text`` when it is only plain words (no quoting needed: letters, digits and
    ``-_./=:+,@%``) and ``quote``d words separated by single spaces; else None."""
    words: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        if text[i] == "'":
            j = i + 1
            while True:
                end = text.find("'", j)
                if end < 0:
                    return None
                if text.startswith("'\\''", end):
                    j = end + 4
                    continue
                break
            word = unquote(text[i : end + 1])
            if word is None:
                return None
            words.append(word)
            i = end + 1
        else:
            end = text.find(" ", i)
            end = n if end < 0 else end
            plain = text[i:end]
            if not plain or not all(c.isascii() and (c.isalnum() or c in "-_./=:+,@%") for c in plain):
                return None
            words.append(plain)
            i = end
        if i < n:
            if text[i] != " ":
                return None
            i += 1
            if i == n:
                return None
    return words
