"""Load the compiled policy set for a run: from the cache when valid, else compile (cold path)."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.project import WORK_DIR, policy_files
from cupcake.stores.policies import cache


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
    problem = None
    if use_cache and os.path.islink(os.path.join(root, WORK_DIR)):
        # a planted link: the cache would be read from, and written to, wherever it points
        use_cache = False
        problem = f"{WORK_DIR} is a symbolic link; Cupcake does not read or write through it (remove it)"
    if use_cache:
        compiled = cache.read(path, key, env)
        if compiled is not None and _imports_unchanged(compiled):
            return Loaded(compiled, files, True)
    from cupcake.compile.compiler import compile_files  # cold path: tomli, pydantic

    try:
        compiled = compile_files(files, root, env)
    except Exception as exc:  # a bug or a limit the compiler does not handle: never self-protection too
        return Loaded(without_policies(root, env, f"{type(exc).__name__}: {exc}"), files, False)
    if use_cache:
        try:
            # A run needs no problem list (``out_of_service`` says what it reports): warnings can be
            # many, and every warm run would read them.
            from cupcake.stores.policies.whole_cache import write  # a rebuild: cold

            write(path, key, {k: v for k, v in compiled.items() if k != "problems"}, env)
        except Exception as exc:  # the policies are valid all the same: enforce them, and say so
            reason = getattr(exc, "strerror", None) or exc
            problem = f"could not write the policy cache {WORK_DIR}/{cache.CACHE_NAME}: {reason}"
    return Loaded(compiled, files, False, problem)


def without_policies(root: str, env, why: str) -> dict:
    """A compiled set with no policy but self-protection's defaults, for when the policy files could not
    be compiled at all: every run reports it (and blocks under fail_mode "closed", from the command line)."""
    from cupcake.protection.protected_set import protected_defaults

    what = f"- the policy files could not be compiled ({why[:500]}); `cupcake validate` says more"
    return {
        "settings": {},
        "problems": [],
        "files": [],
        "imports": [],
        "protected": protected_defaults(root, env),
        "systems": [],
        "out_of_service": what,
        "policies": [],
        "agents": {},
        "index": {},
        "sre": {},
        "state_filters": {},
        "state_needs": {},
    }


def cache_disagreement(root: str, env, compiled_from_source):
    """None when ``.cupcake/policy.cache`` is absent, stale (it would be rebuilt), or holds exactly
    what the policy files compile to; else what is wrong with it, for `doctor` and `validate` to say
    loudly. The cache is never trusted for this: the source was compiled first."""
    from cupcake.stores.policies import whole_cache  # validate and doctor: cold

    path = os.path.join(root, WORK_DIR, cache.CACHE_NAME)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{WORK_DIR}/{cache.CACHE_NAME} cannot be opened safely ({exc.strerror or exc})"
    try:
        data = whole_cache.read_regular(fd)
    finally:
        os.close(fd)
    if data is None:
        return f"{WORK_DIR}/{cache.CACHE_NAME} is not a regular file"
    if data[:8] != cache.MAGIC:
        return None  # another version's format: it is rebuilt, never read
    unpacked = whole_cache.unpack(data, env)
    if isinstance(unpacked, str):
        if whole_cache.sealed_with(data, cache.UNKEYED):
            return None  # sealed before the per-user secret existed: runs no longer trust it, the next rebuilds it
        return f"{WORK_DIR}/{cache.CACHE_NAME} is not trusted: {unpacked}. It may have been forged"
    stored_key, cached = unpacked
    identities = [cache.file_identity(p) for p in policy_files(root, env)]
    if stored_key != cache.cache_key(identities) or not _imports_unchanged(cached):
        return None  # stale: the next run rebuilds it
    expected = {k: v for k, v in compiled_from_source.items() if k != "problems"}  # what a run caches
    if whole_cache.canonical(cached) != whole_cache.canonical(expected):  # bytes, not ==: True == 1 and 1.0 == 1
        return (
            f"{WORK_DIR}/{cache.CACHE_NAME} disagrees with the policy files: it claims to be current but does not "
            "hold what they compile to. It may have been forged"
        )
    return None


def _imports_unchanged(compiled) -> bool:
    """Imported files and the directories their globs scan must be as they were at compile time."""
    for ident in compiled.get("imports", ()):
        if cache.file_identity(ident[0]) != tuple(ident):
            return False
    return True
