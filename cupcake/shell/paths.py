"""Paths the way the kernel sees them. A path written in a command is resolved through the symbolic
links on disk (``os.path.realpath`` of the path as written, so ``link/..`` is the link target's
parent), through the links and moves this same command makes first (then only the name at the end
is known), and never through ``/proc`` or ``/dev/fd`` (a descriptor or another process's directory:
any path). ``readable(path)`` opens a script or archive the reader may look into: a regular file,
bounded, never the hook's own stdin or anything under ``/proc`` or ``/dev``."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.lean_os import S_ISREG
from cupcake.resolve import realpath
from cupcake.shell.limits import LINK_CHECK_COST
from cupcake.shell.model import _normtokens, above, normpath
from cupcake.shell.words import ANY, match

# Devices a write to changes no file (the terminal, the streams, the bit bucket, bash's network paths).
HARMLESS = frozenset(
    (
        "/dev/null",
        "/dev/zero",
        "/dev/full",
        "/dev/random",
        "/dev/urandom",
        "/dev/tty",
        "/dev/stdout",
        "/dev/stderr",
        "/dev/stdin",
        "/dev/fd/0",
        "/dev/fd/1",
        "/dev/fd/2",
    )
)
_OPAQUE = ("/proc/", "/dev/fd/", "/dev/std")
# Where a program named by its path is the one its name says (a copy elsewhere may be anything).
SYSTEM_DIRS = (
    "/bin/",
    "/usr/bin/",
    "/usr/local/bin/",
    "/sbin/",
    "/usr/sbin/",
    "/usr/local/sbin/",
    "/opt/homebrew/bin/",
)
SCRIPT_LIMIT = 256 * 1024


def harmless(path: str) -> bool:
    return path in HARMLESS or path.startswith(("/dev/tcp/", "/dev/udp/", "/dev/pts/"))


def opaque(path: str) -> bool:
    """A path whose meaning depends on a process or a descriptor the reader cannot see."""
    return path == "/proc" or path.startswith(_OPAQUE)


def directory(word, cwd):
    """The directory ``word`` names from ``cwd`` (normalised, as written: ``cd`` and ``-C`` walk it
    that way), or None when the word or the directory it is taken from is not known."""
    if not word.exact or not word.value:
        return None
    if word.value.startswith("/"):
        return normpath(word.value)
    return None if cwd is None else normpath(cwd.rstrip("/") + "/" + word.value)


def base(cmd, effect):
    """The directory an effect's relative path is taken from (``-C`` and the like applied)."""
    cwd = cmd.cwd
    for word in effect.base:
        cwd = directory(word, cwd)
    return cwd


def pin(write, made, follow: bool = True, budget=None, resolved=None) -> None:
    """Resolve ``write`` (a Write or Read) as the kernel would. ``made``: (Write, itself, target) of
    this command's earlier changes that may have left a link at that path (``itself``; ``target``
    where it leads, when known) or anywhere under it (a recursive write); ``follow``: the last
    component is followed too (a redirection writes through a link, ``rm`` removes the link).
    ``budget`` (the parse's ``limits.Budget``) pays for the comparisons with ``made``; when it cannot,
    the reading stops there (incomplete: the caller blocks) and this path is any path. ``resolved``:
    the folders this reading resolved so far (``cupcake.resolve``)."""
    memo = {} if resolved is None else resolved
    path = write.path
    if budget is not None and made and not budget.spend(len(made) * ((path or write.word.value).count("/") + 2)):
        write.unpin([ANY])
        return
    if path is None:
        lead = write.literal_ends()[1]  # the literal characters it starts with
        if opaque(lead) or any(opaque(p) for p in ("/proc/", "/dev/fd/") if p.startswith(lead) and len(lead) > 1):
            write.unpin([ANY])
            return
        _collapse(write)
        return
    if harmless(path):
        return
    if opaque(path):
        write.unpin([ANY])
        return
    cut = _through(path, made, follow, write, budget)
    if cut is not None:
        k, target = cut
        if target is not None:  # a link this command made, to a known place: through it
            write.real = _followed(target + path[k:], made, write, budget, memo)
            if write.real is not None:
                return
        # any directory after it may be another link the same change left: only the name is known
        name = path[path.rfind("/") :]
        write.unpin([ANY] + _normtokens(list(name)) if k < len(path) else [ANY])
        return
    raw = write.word.value if write.word.value.startswith("/") else (write.command.cwd or "") + "/" + write.word.value
    try:
        real = realpath(raw, memo)
    except (OSError, ValueError):
        return
    if opaque(real):
        write.unpin([ANY])
    elif real != path:
        write.real = real


def _followed(path: str, made, write, budget, memo: dict, depth: int = 0):
    """``path`` (reached through a link this command made) resolved further, or None."""
    path = normpath(path)
    if depth > 8 or opaque(path):
        return None
    cut = _through(path, made, True, write, budget)
    if cut is None:
        try:
            real = realpath(path, memo)
        except (OSError, ValueError):
            return None
        return None if opaque(real) else real
    k, target = cut
    return None if target is None else _followed(target + path[k:], made, write, budget, memo, depth + 1)


def _through(path: str, made, follow: bool, write, budget=None):
    """(index in ``path`` just after the first directory — or, ``follow``, the path itself — an
    earlier change may have replaced by a link, where that link leads or None), or None.
    An earlier change at a known path (its tokens are its characters) is compared as a string; one
    known only as a pattern is walked, each walk paid from ``budget``: when it cannot pay, the
    reading stops (incomplete) and this directory is taken as one such a change may have replaced."""
    ends = [k for k in range(1, len(path)) if path[k] == "/"]
    if follow:
        ends.append(len(path))
    for k in ends:
        prefix = path[:k]
        lowered = None
        for other, itself, target in made:
            if other is write:
                continue
            known = other.path
            if known is not None:  # its characters, compared as strings (as ``Write.could_be`` does)
                text = prefix
                if other.fold:
                    lowered = prefix.lower() if lowered is None else lowered
                    known, text = known.lower(), lowered
                if itself and known == text:
                    return k, (target if other.path == prefix else None)
                if other.recursive and above(known, text):
                    return k, None
                continue
            if budget is not None and not budget.spend(LINK_CHECK_COST):
                return k, None
            if itself and match(other.tokens, prefix, other.fold):
                return k, (target if other.path == prefix else None)
            if other.recursive and _under(other.tokens, prefix, other.fold):
                return k, None
    return None


def _under(tokens, path: str, fold: bool) -> bool:
    """Whether a directory above ``path`` could be the target ``tokens`` names."""
    j = path.rfind("/")
    while j > 0:
        if match(tokens, path[:j], fold):
            return True
        j = path.rfind("/", 0, j)
    return j == 0 and match(tokens, "/", fold)


def _collapse(write) -> None:
    """An unknown part may hold ``../``: what comes before it says nothing of where the kernel ends
    up; only what follows the last such part is known (``/tmp/$x.log``: some path ending ``.log``).
    A ``SUB`` part (found under a known directory) never climbs and keeps what precedes it."""
    tokens = write.tokens
    last = len(tokens) - 1  # the last unknown part (from the end: most patterns are a known directory first)
    while last >= 0 and (tokens[last].__class__ is str or tokens[last] != ANY):
        last -= 1
    if last > 0:
        rest = tokens[last + 1 :]
        write.tokens = [ANY] + (_normtokens(rest) if rest and rest[0] == "/" else list(rest))


MISSING = "missing"  # no such file: the program fails, nothing runs
UNREADABLE = "unreadable"  # something is there the reader must not or cannot read
TOO_LONG = "too long"


def readable(path: str, limit: int = SCRIPT_LIMIT):
    """The bytes of the regular file at ``path`` (at most ``limit``), or MISSING, UNREADABLE (a
    device, a descriptor, /proc, a FIFO, a directory, an error) or TOO_LONG."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return UNREADABLE
    if opaque(real) or real.startswith("/dev/") or real == "/dev":
        return UNREADABLE
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(real, flags)
    except FileNotFoundError:
        return MISSING if not os.path.lexists(path) else UNREADABLE
    except (OSError, ValueError):
        return UNREADABLE
    try:
        if not S_ISREG(os.fstat(fd).st_mode):
            return UNREADABLE
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError:
        return UNREADABLE
    finally:
        os.close(fd)
    return TOO_LONG if len(data) > limit else data
