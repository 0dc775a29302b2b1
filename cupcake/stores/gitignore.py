"""Keeping `.cupcake/` (the policy cache, session state, the audit log) out of version control, and
what `sync` leaves beside a team-shared file (a backup, a personal settings file, a record)."""

from __future__ import annotations

from cupcake import lean_os as os

ENTRY = ".cupcake/"
# Lines that already ignore the directory.
_COVERING = frozenset({".cupcake", ".cupcake/", "/.cupcake", "/.cupcake/", ".cupcake/*", "/.cupcake/*", ".cupcake/**"})


class Planned:
    """The `.gitignore` as it is (None: absent) and as it should be (None: no change needed)."""

    __slots__ = ("path", "old", "new", "added")

    def __init__(self, path: str, old, new, added=()):
        self.path = path
        self.old = old
        self.new = new
        self.added = list(added)  # the entries the new text adds


def plan(root: str, extra=()) -> Planned:
    """``extra``: more entries to add, each unless the file already has that exact line."""
    path = os.path.join(root, ".gitignore")
    try:
        with open(path, "rb") as f:
            old = f.read().decode("utf-8", "surrogateescape")
    except FileNotFoundError:
        old = None
    lines = {line.strip() for line in old.splitlines()} if old is not None else set()
    added = [] if lines & _COVERING else [ENTRY]
    added += [entry for entry in extra if entry not in lines]
    if not added:
        return Planned(path, old, None)
    text = old or ""
    if text and not text.endswith("\n"):
        text += "\n"
    return Planned(path, old, text + "".join(entry + "\n" for entry in added), added)


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")
