"""The summary beside the session log (``<name>.idx``): for each state condition's filter, how many
entries match and the times of the latest ones, plus how far into the log it has read.

The log stays the source of truth; the summary is marshal data (never pickle), rebuilt from the log
whenever it is missing, damaged, for another log, or lacks a filter the policies now use. A query
whose summary is current reads one small file whatever the log's length; when the log has grown,
only the new lines are read, under an exclusive ``flock`` on the log so that concurrent runs update
the summary one at a time; appends take the same lock, so a catch-up never reads half an append.

A filter is ``(what, names, path, path_regex, command, success)``: ``what`` is ``"tool"`` (``names``
are tool names) or ``"event"`` (custom events of ``update_state``)."""

from __future__ import annotations

import marshal

from cupcake import lean_os as os
from cupcake import speedups
from cupcake.stores.state.store import INDEX_SUFFIX, open_log, shown
from cupcake.stores.state.timestamps import parse_timestamp

FORMAT = 2  # 2: `command` is matched against the commands the line ran (cupcake.shell)
HEAD = 64  # first bytes of the log, kept to recognise it
_CHUNK = 1 << 20


def matches(entry: dict, key, patterns) -> bool:
    """Whether a log entry is one the filter ``key`` counts."""
    what, names, path, path_regex, command, success = key
    if what == "event":
        return "tool" not in entry and entry.get("event") in names
    if entry.get("tool") not in names:
        return False
    if success is not None and entry.get("success") is not success:
        return False
    if path is not None and entry.get("path") != path:
        return False
    if path_regex is not None and not _search(path_regex, entry.get("path"), patterns):
        return False
    if command is not None:
        given = entry.get("input")
        if not ran(command, given.get("command") if isinstance(given, dict) else None, patterns):
            return False
    return True


def ran(pattern: str, text, patterns) -> bool:
    """Whether the command line ``text`` ran a command that ``pattern`` describes: the pattern must
    match a simple command the line would run, from its program on, as Cupcake's Bash reader reads
    it (wrappers such as ``sudo``, ``uv run``, ``npx`` peeled; ``python -m pytest`` is ``pytest``).
    ``pytest`` matches ``pytest -q``, ``cd x && python3 -m pytest``, not ``echo pytest``."""
    if not isinstance(text, str) or not _search(pattern, text, patterns):
        return False  # the name is not even in the text (a quoted-apart name is not counted: safe side)
    rx = patterns.regex(pattern)
    from cupcake.shell import parse

    script = parse(text)
    if script.incomplete:
        return False
    for cmd in script.commands:
        argv = [cmd.program, *cmd.args]
        if _python(argv[0]) and len(argv) > 2 and argv[1] == "-m":
            argv = argv[2:]
        if rx.match(" ".join(argv)) is not None:
            return True
    return False


def _python(program: str) -> bool:
    return program.startswith("python") and all(c.isdigit() or c == "." for c in program[6:])


def _search(pattern: str, text, patterns) -> bool:
    return isinstance(text, str) and patterns.regex(pattern).search(text) is not None


def load(dir_fd: int, name: str, keys: dict, patterns) -> tuple[dict, list]:
    """(summary for ``keys``, warnings). ``keys`` maps each filter to how many latest times it keeps.

    The summary maps a filter to ``[kept, total, times]``; a session without a log has none. ``patterns``:
    the run's regexes (``cupcake.evaluate.patterns``)."""
    fd = open_log(dir_fd, name)
    if fd is None:
        return {}, []
    try:
        st = os.fstat(fd)
        index = _read_index(dir_fd, name)
        if _current(index, st, keys, fd):
            return index[4], []
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)  # bounded by the run's deadline
        try:
            index = _read_index(dir_fd, name)  # another run may have brought it up to date meanwhile
            st = os.fstat(fd)
            if _current(index, st, keys, fd):
                return index[4], []
            stats, index, warnings = _catch_up(fd, index, st, keys, name, patterns)
            try:
                _write_index(dir_fd, name, index)
            except OSError as exc:
                warnings.append(
                    f"could not write the session state summary {shown(name, INDEX_SUFFIX)}: "
                    f"{exc.strerror or exc} (state was read from the log itself)"
                )
            return stats, warnings
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _same_log(index, st, fd) -> bool:
    """The summary was made from this log: same inode (which a new file may reuse) and same first bytes."""
    head = index[5]
    return index[1] == st.st_ino and index[2] <= st.st_size and os.pread(fd, len(head), 0) == head


def _current(index, st, keys, fd) -> bool:
    if index is None or index[2] != st.st_size or not _same_log(index, st, fd):
        return False
    stats = index[4]
    for key, kept in keys.items():
        found = stats.get(key)
        if found is None or found[0] < kept:
            return False
    return True


def _read_index(dir_fd: int, name: str):
    """(FORMAT, inode, offset, lines, stats, head) or None when missing or not a summary of this format."""
    try:
        fd = os.open(name + INDEX_SUFFIX, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        data = b""
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            data += chunk
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        index = marshal.loads(data)
    except Exception:
        return None
    if not (
        isinstance(index, tuple)
        and len(index) == 6
        and index[0] == FORMAT
        and isinstance(index[4], dict)
        and isinstance(index[5], bytes)
    ):
        return None
    if not all(isinstance(v, list) and len(v) == 3 and isinstance(v[2], list) for v in index[4].values()):
        return None
    return index


def _write_index(dir_fd: int, name: str, index) -> None:
    """Atomically, through the one writer, in the state directory already opened safely."""
    from cupcake.stores.atomic_write import write_in

    write_in(dir_fd, name + INDEX_SUFFIX, marshal.dumps(index))


def _catch_up(fd: int, index, st, keys: dict, name: str, patterns):
    if index is None or not _same_log(index, st, fd):
        offset, lines, old = 0, 0, {}
    else:
        offset, lines, old = index[2], index[3], index[4]
    stats = {}
    missing = {}
    for key, kept in keys.items():
        found = old.get(key)
        if found is not None and found[0] >= kept:
            stats[key] = found
        else:
            stats[key] = [kept, 0, []]
            missing[key] = stats[key]
    if missing and offset:
        _scan(fd, 0, offset, missing, 0, patterns)  # its corrupt lines were reported when first read
    offset, lines, corrupt = _scan(fd, offset, st.st_size, stats, lines, patterns)
    warnings = []
    if corrupt:
        where = ", ".join(str(n) for n in corrupt[:10]) + (", …" if len(corrupt) > 10 else "")
        many = len(corrupt) > 1
        warnings.append(
            f"skipped {len(corrupt) if many else 'a'} corrupt line{'s' if many else ''} in the session "
            f"state ({shown(name)}, line{'s' if many else ''} {where})"
        )
    return stats, (FORMAT, st.st_ino, offset, lines, stats, os.pread(fd, HEAD, 0)), warnings


def _scan(fd: int, start: int, end: int, stats: dict, lines: int, patterns):
    """Count the whole lines in ``[start, end)`` into ``stats``: (offset after the last whole line,
    lines read so far, numbers of the corrupt lines). A line not yet ended is left for later."""
    import _bisect

    corrupt = []
    offset = position = start
    rest = b""
    filters = list(stats.items())
    loads_line = speedups.json_loads_line
    while position < end:
        chunk = os.pread(fd, min(_CHUNK, end - position), position)
        if not chunk:
            break
        position += len(chunk)
        data = rest + chunk
        cut = data.rfind(b"\n")
        if cut < 0:
            rest = data
            continue
        rest = data[cut + 1 :]
        offset += cut + 1
        for raw in data[:cut].split(b"\n"):
            lines += 1
            if not raw or raw.isspace():
                continue
            try:
                entry = loads_line(raw)
            except Exception:  # not JSON, not UTF-8, nested too deep
                entry = None
            if entry.__class__ is not dict:
                corrupt.append(lines)
                continue
            when = None
            for key, found in filters:
                if not matches(entry, key, patterns):
                    continue
                found[1] += 1
                if found[0]:
                    if when is None:
                        when = parse_timestamp(entry.get("timestamp")) or 0.0
                    _bisect.insort_right(found[2], when)
                    if len(found[2]) > found[0]:
                        del found[2][0]
    return offset, lines, corrupt
