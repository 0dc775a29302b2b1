"""Append one line to ``.cupcake/audit.log``: under an exclusive lock, in one ``O_APPEND`` write,
chained to the previous line, rotating the file first when it would grow past its size.

Parallel hook processes serialise on ``.cupcake/audit.lock`` (``flock``: the kernel releases it
when a process dies). Holding the lock, a writer reads the last line (of the previous file,
right after a rotation), so ``seq`` and ``prev`` continue across files; a write that fails half
way is rolled back, so no partial line is left behind.

With each append the writer also rewrites ``audit.anchor`` (see ``anchor``): the last line's seq and
hash, what rotation let fall off, and each rotated file's last hash, so that ``verify`` sees lines cut
off the head or the tail and rotated files deleted.

The lock cannot suppress a record: waiting for it ends at the run's deadline (and after ``LOCK_WAIT``
at most); the record is then kept in ``audit.pending.<time>.<pid>.<random>`` (created exclusively) and
joins the chain, in order, with the next append or ``cupcake audit verify``; the run warns loudly."""

from __future__ import annotations

import errno
import fcntl
import time

from cupcake import lean_os as os
from cupcake.errors import CupcakeError
from cupcake.stores.audit.chain import GENESIS, SCHEMA_VERSION, line_hash, seal, seq_of

LOG_NAME = "audit.log"
LOCK_NAME = "audit.lock"
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_KEEP = 5
LOCK_WAIT = 1.0  # seconds a run waits for the lock (it is held for microseconds); then the record goes pending
PENDING_PREFIX = "audit.pending."
MAX_PENDING_MERGED = 64  # pending records one append adds to the chain (the rest wait for the next one)
_PENDING_MAX_BYTES = 1 << 20

_FLAGS = os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
_TAIL = 8192


class AuditWriteError(CupcakeError):
    """The line could not be written; the message is written for the user."""


def rotated(path: str, n: int) -> str:
    return f"{path}.{n}"


def trail_files(path: str) -> list[str]:
    """The rotated files (highest number = oldest) and then the current file, those that exist."""
    folder, name = os.path.split(path)
    numbered = []
    try:
        names = os.listdir(folder or ".")
    except OSError:
        names = []
    prefix = name + "."
    for other in names:
        suffix = other[len(prefix) :]
        if other.startswith(prefix) and suffix.isdigit():
            numbered.append((int(suffix), os.path.join(folder, other)))
    files = [p for _n, p in sorted(numbered, reverse=True)]
    if os.path.isfile(path):
        files.append(path)
    return files


def _lock(fd: int, wait: float) -> None:
    give_up = time.monotonic() + wait
    pause = 0.0005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= give_up:
                raise AuditWriteError(
                    f"could not write the audit log: {LOCK_NAME} was held by another process for more than "
                    f"{wait:g} s, so this event is missing from the trail"
                ) from None
            time.sleep(pause)
            pause = min(pause * 2, 0.005)


def last_line(fd: int, size: int):
    """(the file's last line without its newline, whether the file ends with a newline)."""
    if size == 0:
        return None, True
    chunk = _TAIL
    while True:
        start = max(0, size - chunk)
        data = os.pread(fd, size - start, start)
        complete = data.endswith(b"\n")
        body = data[:-1] if complete else data
        cut = body.rfind(b"\n")
        if cut >= 0:
            return body[cut + 1 :], complete
        if start == 0:
            return body, complete
        chunk *= 4


def _previous_file_tail(path: str):
    """The last line of ``audit.log.1``: the chain goes on from there after a rotation."""
    try:
        fd = os.open(rotated(path, 1), os.O_RDONLY | _FLAGS)
    except OSError:
        return None
    try:
        return last_line(fd, os.fstat(fd).st_size)[0]
    finally:
        os.close(fd)


def _rotate(path: str, keep: int) -> None:
    """audit.log → .1 → .2 … → .keep (the oldest falls off)."""
    for n in range(keep - 1, 0, -1):
        try:
            os.replace(rotated(path, n), rotated(path, n + 1))
        except FileNotFoundError:
            pass
    os.replace(path, rotated(path, 1))


def _open_log(path: str) -> int:
    return os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | _FLAGS, 0o600)


def _describe(exc: OSError) -> str:
    from cupcake.stores.safe_files import UnsafePath

    if isinstance(exc, UnsafePath):  # says itself what stands in the way (a link, or not a directory)
        return str(exc.strerror)
    if getattr(exc, "errno", None) == errno.ELOOP:  # O_NOFOLLOW met a symbolic link
        return "it is a symbolic link, and Cupcake does not write through one"
    return str(exc.strerror or exc)


def append(
    workdir: str,
    body: str,
    max_bytes: int = DEFAULT_MAX_BYTES,
    keep: int = DEFAULT_KEEP,
    wait: float = LOCK_WAIT,
    deadline: float | None = None,
) -> int:
    """Append the record ``body`` (a JSON object's text, as ``speedups.json_dumps`` gives it) and return its seq.

    ``deadline`` (a ``time.monotonic()`` value) bounds the wait for the lock; when the lock cannot be
    had in time the record is kept in a pending file and ``AuditWriteError`` says so (seq 0 is never
    returned)."""
    path = os.path.join(workdir, LOG_NAME)
    shown = os.path.join(os.path.basename(workdir), LOG_NAME)
    if deadline is not None:
        wait = max(0.0, min(wait, deadline - time.monotonic() - 0.05))
    try:
        from cupcake.stores.safe_files import ensure_dir

        ensure_dir(workdir)
        lock_fd = os.open(os.path.join(workdir, LOCK_NAME), os.O_RDWR | os.O_CREAT | _FLAGS, 0o600)
    except OSError as exc:
        raise AuditWriteError(f"could not write the audit log {shown}: {_describe(exc)}") from None
    try:
        try:
            _lock(lock_fd, wait)
        except AuditWriteError:
            raise AuditWriteError(_keep_pending(workdir, body, wait)) from None
        return _append_all(workdir, path, shown, body, max_bytes, keep)
    finally:
        os.close(lock_fd)  # releases the lock


def _keep_pending(workdir: str, body: str, wait: float) -> str:
    """Save the record beside the log for the next writer; the warning for the user."""
    base = os.path.basename(workdir)
    held = f"{base}/{LOCK_NAME} was held by another process for more than {wait:g} s"
    try:
        from cupcake.stores.safe_files import create_temp

        dir_fd = os.open(workdir, os.O_RDONLY | os.O_DIRECTORY | _FLAGS)
        try:
            fd, name = create_temp(dir_fd, f"{PENDING_PREFIX}{time.time_ns():020d}.{os.getpid()}")
            try:
                os.write(fd, body.encode("utf-8", "surrogatepass"))
            finally:
                os.close(fd)
        finally:
            os.close(dir_fd)
    except OSError as exc:
        return f"could not write the audit log: {held}, and keeping the record aside failed too ({_describe(exc)}); this event is missing from the trail"
    return f"could not write the audit log now: {held}; the record was kept in {base}/{name} and joins the trail with the next run"


def pending_names(workdir: str) -> list[str]:
    try:
        names = os.listdir(workdir)
    except OSError:
        return []
    return sorted(n for n in names if n.startswith(PENDING_PREFIX) and n.endswith(".tmp"))


def merge_pending(workdir: str, wait: float = 2.0) -> int:
    """Add waiting pending records to the chain (``cupcake audit verify`` does this first); how many remain."""
    if not pending_names(workdir):
        return 0
    lock_fd = os.open(os.path.join(workdir, LOCK_NAME), os.O_RDWR | os.O_CREAT | _FLAGS, 0o600)
    try:
        _lock(lock_fd, wait)
        path = os.path.join(workdir, LOG_NAME)
        while pending_names(workdir):
            _append_all(workdir, path, os.path.join(os.path.basename(workdir), LOG_NAME), None, 0, DEFAULT_KEEP)
    finally:
        os.close(lock_fd)
    return len(pending_names(workdir))


def _read_pending(workdir: str, name: str):
    try:
        fd = os.open(os.path.join(workdir, name), os.O_RDONLY | os.O_NONBLOCK | _FLAGS)
    except OSError:
        return None
    try:
        data = os.read(fd, _PENDING_MAX_BYTES)
    finally:
        os.close(fd)
    text = data.decode("utf-8", "replace").strip()
    return text if text.startswith("{") and text.endswith("}") and len(text) > 2 else None


def _append_all(workdir: str, path: str, shown: str, body, max_bytes: int, keep: int) -> int:
    """Under the lock: the pending records first, then ``body``; the anchor rewritten once at the end."""
    from cupcake.stores.audit import anchor as anchors

    found = anchors.read(workdir)
    state = found if isinstance(found, dict) else None
    missing_note = None
    if state is None:
        missing_note = f"the anchor could not be read ({found})" if isinstance(found, str) else "the anchor was missing"
    seq = 0
    for name in pending_names(workdir)[:MAX_PENDING_MERGED]:
        record = _read_pending(workdir, name)
        if record is not None:
            seq, state, missing_note = _append_locked(path, shown, record, max_bytes, keep, state, missing_note)
        try:
            os.unlink(os.path.join(workdir, name))
        except OSError:
            pass
    if body is not None:
        seq, state, missing_note = _append_locked(path, shown, body, max_bytes, keep, state, missing_note)
    if state is not None:
        try:
            anchors.write(workdir, state)
        except OSError as exc:
            raise AuditWriteError(
                f"wrote the audit log {shown}, but could not update {os.path.basename(workdir)}/{anchors.ANCHOR_NAME}: "
                f"{_describe(exc)}; verify will report it"
            ) from None
    return seq


def _rebuilt_anchor(path: str, note: str, seq: int) -> dict:
    """An anchor made from the files as they are (when it was missing), with the evidence of that."""
    from cupcake.stores.audit import anchor as anchors

    state = anchors.fresh()
    anchors.note_break(state, f"{note} when seq {seq} was written: earlier cuts cannot be ruled out")
    files = trail_files(path)
    for number, file in enumerate(files[:-1] if files and files[-1] == path else files):
        first, last = _ends(file)
        if first is None:
            continue
        if number == 0:
            state["dropped"] = (seq_of(first) or 1) - 1
            state["dropped_hash"] = _prev_of(first)
        state["files"][os.path.basename(file)] = [seq_of(first) or 0, seq_of(last) or 0, line_hash(last)]
    return state


def _prev_of(line: bytes) -> str:
    at = line.find(b'"prev":"')
    return line[at + 8 : at + 72].decode("ascii", "replace") if at >= 0 else GENESIS


def _ends(file: str):
    """(first line, last line) of a file, or (None, None)."""
    try:
        fd = os.open(file, os.O_RDONLY | _FLAGS)
    except OSError:
        return None, None
    try:
        size = os.fstat(fd).st_size
        last, _ = last_line(fd, size)
        head = os.pread(fd, min(size, 65536), 0)
        first = head.split(b"\n", 1)[0] if head else None
        return first, last
    finally:
        os.close(fd)


def _append_locked(path: str, shown: str, body: str, max_bytes: int, keep: int, state, missing_note):
    """Append one record; returns (its seq, the anchor as it now stands, the note still to make)."""
    from cupcake.stores.audit import anchor as anchors

    fd = -1
    try:
        fd = _open_log(path)
        size = os.fstat(fd).st_size
        previous, complete = last_line(fd, size)
        if previous is None:
            previous = _previous_file_tail(path)
        seq = (seq_of(previous) or 0) + 1 if previous is not None else 1
        prev = line_hash(previous) if previous is not None else GENESIS
        if state is None:
            if previous is None and missing_note == "the anchor was missing":
                state = anchors.fresh()  # a new trail
            else:
                state = _rebuilt_anchor(path, missing_note, seq)
            missing_note = None
        elif prev != state["last"] or seq != state["last_seq"] + 1:
            anchors.note_break(
                state,
                f"when seq {seq} was written the trail ended at seq {seq - 1}, but the anchor's last line was "
                f"seq {state['last_seq']}: lines were cut from the tail, or the log was replaced",
            )
        unsealed = f'{{"v":{SCHEMA_VERSION},"seq":{seq},"prev":"{prev}",{body[1:-1]}'.encode("utf-8", "replace")
        line = seal(unsealed) + b"\n"
        raw = line if complete else b"\n" + line
        if max_bytes and size and size + len(raw) > max_bytes:
            os.close(fd)
            fd = -1
            _note_rotation(path, state, max(1, keep), previous)
            _rotate(path, max(1, keep))
            fd = _open_log(path)
            size, raw = 0, line
        try:
            written = os.write(fd, raw)
            if written != len(raw):
                raise OSError(28, "short write (is the disk full?)")
        except OSError:
            try:
                os.ftruncate(fd, size)  # we hold the lock: nobody appended since
            except OSError:
                pass
            raise
        state["last_seq"], state["last"] = seq, line_hash(line[:-1])
        return seq, state, missing_note
    except OSError as exc:
        raise AuditWriteError(
            f"could not write the audit log {shown}: {_describe(exc)}; this event is missing from the trail"
        ) from None
    finally:
        if fd >= 0:
            os.close(fd)


def _note_rotation(path: str, state: dict, keep: int, previous) -> None:
    """The anchor's view of audit.log → .1 → … → .keep (the oldest falls off)."""
    name = os.path.basename(path)
    files = {}
    for other, ends in state["files"].items():
        suffix = other[len(name) + 1 :]
        if not (other.startswith(name + ".") and suffix.isdigit()):
            continue
        number = int(suffix)
        if number >= keep:
            state["dropped"], state["dropped_hash"] = ends[1], ends[2]
        else:
            files[f"{name}.{number + 1}"] = ends
    first, _ = _ends(path)
    if first is not None and previous is not None:
        files[f"{name}.1"] = [seq_of(first) or 0, seq_of(previous) or 0, line_hash(previous)]
    state["files"] = files
