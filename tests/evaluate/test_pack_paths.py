"""A file tool's path is normalised for the packs' path conditions without loading the Bash reader: the
same path the reader's ``normpath`` gives, whatever the spelling."""

from __future__ import annotations

import itertools

from cupcake.evaluate.pack_match import _absolute
from cupcake.shell.model import normpath


def test_the_same_path_as_the_readers_normpath():
    parts = ["", ".", "..", "a", "b.c", "...", " ", "~x", "é"]
    checked = 0
    for n in range(1, 5):
        for combo in itertools.product(parts, repeat=n):
            for lead in ("", "/", "//", "///"):
                value = lead + "/".join(combo)
                for base in ("/", "/work/p", "//srv/x/", "/a/../b"):
                    if value.startswith("~"):
                        continue  # the home folder: expanded first, then the same path
                    expected = normpath(value if value.startswith("/") else (base or "/").rstrip("/") + "/" + value)
                    assert _absolute(value, base) == expected, (value, base)
                    checked += 1
    assert checked > 10_000
