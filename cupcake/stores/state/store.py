"""The state directory and the session log: ``.cupcake/state/<name>.json``, append-only.

Every file is opened relative to the state directory's descriptor, which is opened without
following symbolic links: nothing an agent puts in place (a link named ``state``, or a log that
points at ``~/.bashrc``) makes Cupcake write or delete outside ``.cupcake/state/``.

Hooks run in parallel (several tool calls at once, subagents), so one entry is one whole line
written by a single ``write`` on an ``O_APPEND`` descriptor: concurrent appends never interleave."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake import speedups
from cupcake.errors import CupcakeError
from cupcake.project import WORK_DIR

STATE_DIR = "state"
LOG_SUFFIX = ".json"
INDEX_SUFFIX = ".idx"
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def shown(name: str, suffix: str = LOG_SUFFIX) -> str:
    """How a state file is named in messages."""
    return f"{WORK_DIR}/{STATE_DIR}/{name}{suffix}"


def open_state_dir(root: str, create: bool):
    """A descriptor of ``<root>/.cupcake/state`` (the caller closes it), or None when it does not
    exist and ``create`` is false. A symbolic link or a file in its place is refused."""
    work = os.path.join(root, WORK_DIR)
    if create:
        for path in (work, os.path.join(work, STATE_DIR)):
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                pass
            except OSError as exc:
                raise CupcakeError(f"cannot create {_rel(path, root)}/: {exc.strerror or exc}") from None
    try:
        work_fd = os.open(work, _DIR_FLAGS)
    except FileNotFoundError:
        if create:
            raise CupcakeError(f"{WORK_DIR}/ vanished while session state was written") from None
        return None
    except OSError as exc:
        raise CupcakeError(_not_a_directory(WORK_DIR, exc)) from None
    try:
        return os.open(STATE_DIR, _DIR_FLAGS, dir_fd=work_fd)
    except FileNotFoundError:
        if create:
            raise CupcakeError(f"{WORK_DIR}/{STATE_DIR}/ vanished while session state was written") from None
        return None
    except OSError as exc:
        raise CupcakeError(_not_a_directory(f"{WORK_DIR}/{STATE_DIR}", exc)) from None
    finally:
        os.close(work_fd)


def _rel(path: str, root: str) -> str:
    return path[len(root.rstrip("/")) + 1 :] if path.startswith(root.rstrip("/") + "/") else path


def _not_a_directory(what: str, exc: OSError) -> str:
    import errno

    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return f"{what} is not a plain directory (a symbolic link or a file?): Cupcake keeps session state only in a real directory"
    return f"cannot open {what}/: {exc.strerror or exc}"


def encode_line(entry: dict) -> bytes:
    return speedups.json_dumps(entry).encode("utf-8", "replace") + b"\n"


def append(dir_fd: int, name: str, entries) -> None:
    """Append ``entries`` to the session log: one ``write`` of whole lines.

    If the log ends in a line cut short (a process killed mid-write long ago), a newline first
    keeps that damage to its own line instead of spoiling the entry written now. The look at the
    last byte and the write happen under an exclusive lock: otherwise another process's append,
    caught half-copied, would look cut short and earn a spurious blank line."""
    import fcntl

    data = b"".join(encode_line(e) for e in entries)
    fd = os.open(
        name + LOG_SUFFIX, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dir_fd
    )
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        written = os.write(fd, data)
        if written != len(data):  # a full disk: say so rather than leave half a line unreported
            raise CupcakeError(f"only {written} of {len(data)} bytes were written to {shown(name)}")
    finally:
        os.close(fd)


def open_log(dir_fd: int, name: str):
    """A read-only descriptor of the session log, or None when the session has none yet."""
    try:
        return os.open(name + LOG_SUFFIX, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return None


def remove_session(dir_fd: int, name: str) -> list:
    """Delete the session's log, summary and Stop loop counts; returns the names removed."""
    removed = []
    for suffix in (LOG_SUFFIX, INDEX_SUFFIX, ".stop.stops", ".subagentstop.stops"):
        try:
            os.unlink(name + suffix, dir_fd=dir_fd)
            removed.append(name + suffix)
        except FileNotFoundError:
            pass
    return removed
