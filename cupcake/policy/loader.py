"""Load the compiled policy set for a run: from the cache when valid, else compile (cold path)."""

from __future__ import annotations

import os

from cupcake.policy import cache
from cupcake.project import WORK_DIR, policy_files


class Loaded:
    """The outcome of a load: the compiled set (or its error) and whether the cache was used."""

    __slots__ = ("compiled", "files", "from_cache", "cache_problem")

    def __init__(self, compiled, files, from_cache, cache_problem=None):
        self.compiled = compiled
        self.files = files
        self.from_cache = from_cache
        self.cache_problem = cache_problem


def load(root: str, env, use_cache: bool = True):
    """None when no policy file exists (Cupcake then does nothing at all)."""
    files = policy_files(root, env)
    identities = [cache.file_identity(p) for p in files]
    if all(ident[1] is None for ident in identities):
        return None
    key = cache.cache_key(identities)
    path = os.path.join(root, WORK_DIR, cache.CACHE_NAME)
    if use_cache:
        compiled = cache.read(path, key)
        if compiled is not None and _imports_unchanged(compiled):
            return Loaded(compiled, files, True)
    from cupcake.policy.compiler import compile_files  # cold path: tomli, pydantic

    compiled = compile_files(files, root, env)
    problem = None
    if use_cache:
        try:
            # A run needs no problem list (``out_of_service`` says what it reports): warnings can be
            # many, and every warm run would read them.
            cache.write(path, key, {k: v for k, v in compiled.items() if k != "problems"})
        except Exception as exc:  # the policies are valid all the same: enforce them, and say so
            reason = getattr(exc, "strerror", None) or exc
            problem = f"could not write the policy cache {WORK_DIR}/{cache.CACHE_NAME}: {reason}"
    return Loaded(compiled, files, False, problem)


def _imports_unchanged(compiled) -> bool:
    """Imported files and the directories their globs scan must be as they were at compile time."""
    for ident in compiled.get("imports", ()):
        if cache.file_identity(ident[0]) != tuple(ident):
            return False
    return True
