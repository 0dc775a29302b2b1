"""A protected path in every form a tool may name it: as written (normalised) and with symbolic links
resolved, folded to one case where the file system ignores case. The protected set and the installation's
paths both list paths this way."""

from __future__ import annotations

import os
import sys

FOLD = sys.platform == "darwin"  # APFS and HFS+ are case-insensitive by default


def forms(paths) -> list:
    """Each path as written (normalised) and with symlinks resolved; folded where names are."""
    out: list = []
    for path in paths:
        for form in (os.path.normpath(os.path.abspath(path)), os.path.realpath(path)):
            form = form.lower() if FOLD else form
            if form not in out:
                out.append(form)
    return out
