"""Start the forwarder from a run, without a daemon: at most once per interval, detached (hot path).

A run looks at one file's time (``forwarder.started``): when it is younger than the interval, that is all
it does. Otherwise it takes the file's lock, looks again (another run may have just started one),
marks the file and starts ``python -m cupcake.telemetry.forward --background <root>`` in a session of its
own, with stdin from ``/dev/null`` and its output in ``forwarder.log``: the agent's pipes are not passed
on, so the agent never waits for it, and killing the hook's process group does not stop it. The
forwarder itself keeps the file young while it works, so runs start no second one. ``os.posix_spawn``
(no ``subprocess`` import) costs about a millisecond, once per interval.
"""

from __future__ import annotations

import os
import sys
import time

from cupcake.telemetry.spool import directory

STAMP = "forwarder.started"
LOG = "forwarder.log"
MODULE = "cupcake.telemetry.forward"


def due(stamp: str, interval: float, now: float) -> bool:
    try:
        st = os.stat(stamp)
    except FileNotFoundError:
        return True
    # a stamp from the future (the clock was set back) does not hold the forwarder off for ever
    return not st.st_size or not (0 <= now - st.st_mtime < interval)


def _claim(stamp: str, interval: float) -> bool:
    """Mark the stamp as this run's, unless another run did within the interval."""
    fd = os.open(stamp, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        try:
            os.lockf(fd, os.F_TLOCK, 0)
        except OSError:
            return False  # another run is claiming it now
        st = os.fstat(fd)
        if st.st_size and 0 <= time.time() - st.st_mtime < interval:
            return False
        os.pwrite(fd, b"1", 0)  # the write sets its time
        os.utime(fd)
        return True
    finally:
        os.close(fd)


def command(root: str) -> list[str]:
    """The forwarder's command line: this interpreter, as this run was started."""
    flags = ["-I"] if sys.flags.isolated else []
    return [sys.executable, *flags, "-m", MODULE, "--background", root]


def start(root: str, folder: str, env) -> None:
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (
            os.POSIX_SPAWN_OPEN,
            1,
            os.path.join(folder, LOG),
            os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW,
            0o600,
        ),
        (os.POSIX_SPAWN_DUP2, 1, 2),
    ]
    os.posix_spawn(sys.executable, command(root), dict(env), file_actions=actions, setsid=True)


def maybe_start(workdir: str, root: str, interval: float, env) -> bool:
    """Start a forwarder when none was started within ``interval`` seconds; whether one was started."""
    folder = directory(workdir)
    stamp = os.path.join(folder, STAMP)
    if not due(stamp, interval, time.time()) or not _claim(stamp, interval):
        return False
    start(root, folder, env)
    return True
