"""Keeping `.cupcake/` (the policy cache, session state, the audit log) out of version control."""

from __future__ import annotations

import os

ENTRY = ".cupcake/"
# Lines that already ignore the directory.
_COVERING = frozenset({".cupcake", ".cupcake/", "/.cupcake", "/.cupcake/", ".cupcake/*", "/.cupcake/*", ".cupcake/**"})


class Planned:
    """The `.gitignore` as it is (None: absent) and as it should be (None: no change needed)."""

    __slots__ = ("path", "old", "new")

    def __init__(self, path: str, old, new):
        self.path = path
        self.old = old
        self.new = new


def plan(root: str) -> Planned:
    path = os.path.join(root, ".gitignore")
    try:
        with open(path, "rb") as f:
            old = f.read().decode("utf-8", "surrogateescape")
    except FileNotFoundError:
        old = None
    if old is not None and any(line.strip() in _COVERING for line in old.splitlines()):
        return Planned(path, old, None)
    text = old or ""
    if text and not text.endswith("\n"):
        text += "\n"
    return Planned(path, old, text + ENTRY + "\n")


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")
