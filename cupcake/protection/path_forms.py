"""A protected path in every form a tool may name it: as written (normalised) and with symbolic links
resolved, folded to one case where the file system ignores case. The protected set and the installation's
paths both list paths this way."""

from __future__ import annotations

import sys

from cupcake import lean_os as os
from cupcake.resolve import realpath

FOLD = sys.platform == "darwin"  # APFS and HFS+ are case-insensitive by default


def forms(paths, resolved: dict | None = None) -> list:
    """Each path as written (normalised) and with symlinks resolved; folded where names are.
    ``resolved``: folders already resolved (``cupcake.resolve``), shared between calls over paths of
    the same tree."""
    out: list = []
    memo = {} if resolved is None else resolved
    for path in paths:
        absolute = os.path.abspath(path)  # (normalised)
        for form in (absolute, realpath(path, memo)):
            form = form.lower() if FOLD else form
            if form not in out:
                out.append(form)
    return out
