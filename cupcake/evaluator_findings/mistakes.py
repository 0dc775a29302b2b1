"""The cumulative list of repeated mistakes, ``.cupcake/repeated-mistakes.txt``: one per line, in the
order they were first reported, deduplicated by exact match after trimming (seed 004's ``grep -qF``
was a substring match, which dropped "isApproved" once "Missing isApproved filter" was listed)."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.inject_context.files import open_regular, read_fd
from cupcake.lean_os import S_ISREG
from cupcake.project import WORK_DIR

FILE_NAME = "repeated-mistakes.txt"
MAX_BYTES = 1 << 20  # what is read of the list
_APPEND = (
    os.O_RDWR
    | os.O_APPEND
    | os.O_CREAT
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def list_path(root: str) -> str:
    return os.path.join(root, WORK_DIR, FILE_NAME)


def read_mistakes(path: str) -> list[str]:
    """The entries, trimmed, blank lines and repeats left out; [] when the file does not exist.

    Raises ``FileProblem`` when it exists but cannot be read."""
    if not os.path.lexists(path):
        return []
    data, _more = read_fd(open_regular(path), MAX_BYTES)
    entries = []
    for line in data.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line and line not in entries:
            entries.append(line)
    return entries


def add_mistakes(path: str, known: list[str], new: list[str], write: bool = True) -> list[str]:
    """Append the values of ``new`` not already in ``known`` (updated in place); returns those added.
    ``write`` false (a rehearsal): ``known`` is updated, the file is not.

    Raises ``OSError`` when the file cannot be written (``known`` then holds them all the same)."""
    added = [m for m in new if m not in known]
    if not added:
        return []
    known.extend(added)
    if not write:
        return added
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd = os.open(path, _APPEND, 0o644)  # never through a symlink: it could point anywhere
    try:
        st = os.fstat(fd)
        if not S_ISREG(st.st_mode):
            raise OSError(f"{path} is not a regular file")
        # a list written by hand may lack its final newline
        prefix = b"\n" if st.st_size and os.pread(fd, 1, st.st_size - 1) != b"\n" else b""
        os.write(fd, prefix + "".join(f"{m}\n" for m in added).encode("utf-8"))
    finally:
        os.close(fd)
    return added
