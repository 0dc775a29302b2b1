"""One error handler for the commands a person runs (pre-commit's model): whatever goes wrong, the
person gets one line that says what, and an exit code a script can act on.

| exit | meaning |
|---|---|
| 0 | done |
| 1 | a problem Cupcake found and reported (a broken policy file, a check that failed, …) |
| 2 | the command line was wrong (usage) |
| 3 | an unexpected error in Cupcake itself: the traceback goes to the log file (or to stderr with ``CUPCAKE_DEBUG=1``) |
| 130 | interrupted (Ctrl-C) |

``cupcake run`` never comes here: it always answers the agent (``cupcake/cli/run.py``).
"""

from __future__ import annotations

import os
import sys
import time

PROBLEM, USAGE, UNEXPECTED, INTERRUPTED = 1, 2, 3, 130


def log_path(env=os.environ) -> str:
    """Where the traceback of an unexpected error is kept: ``$XDG_CACHE_HOME/cupcake/cupcake.log``."""
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cupcake", "cupcake.log")


def unexpected(exc: BaseException, argv, err=sys.stderr, env=os.environ) -> int:
    """Report an error nobody expected: one line for the person, the traceback for whoever fixes it."""
    import traceback

    trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if env.get("CUPCAKE_DEBUG") == "1":
        print(trace, file=err, end="")
        print(f"cupcake: unexpected error: {type(exc).__name__}: {exc}", file=err)
        return UNEXPECTED
    where = _keep(trace, argv, env)
    tail = f"the traceback is in {where}" if where else "set CUPCAKE_DEBUG=1 to see the traceback"
    print(f"cupcake: unexpected error: {type(exc).__name__}: {exc} ({tail})", file=err)
    return UNEXPECTED


def _keep(trace: str, argv, env) -> str | None:
    path = log_path(env)
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8", errors="replace") as log:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S%z")
            log.write(f"### {stamp} cupcake {' '.join(argv)}\n{trace}\n")
    except OSError:
        return None
    return path
