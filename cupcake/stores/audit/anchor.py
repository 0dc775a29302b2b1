"""``.cupcake/audit.anchor``: what the chain alone cannot show, kept beside the log.

The hash chain catches a line edited, inserted or removed in the middle; it cannot see lines cut off
the head or the tail, nor a rotated file deleted. The anchor, rewritten (whole, atomically) under the
audit lock with every append, holds:

- ``last_seq`` / ``last``: the seq and hash of the last line written (cutting the tail shows);
- ``dropped`` / ``dropped_hash``: the last line that rotation let fall off the oldest file (0 and the
  genesis when none), so the trail must start right after it (cutting the head shows);
- ``files``: each rotated file with its first seq, last seq and last line's hash (deleting or cutting
  one shows);
- ``breaks``: what a writer found wrong when it appended (the log ended before the anchor's last line,
  or the anchor was missing): evidence that stays even when later lines chain on cleanly.

Like the chain it has no secret: it catches cuts by hand or by a tool that does not know the format,
not a forger who rewrites the anchor too.
"""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.stores.audit.chain import GENESIS

ANCHOR_NAME = "audit.anchor"
_FLAGS = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
MAX_BREAKS = 100
MAGIC = "cupcake-audit-anchor 1"


def fresh() -> dict:
    return {"v": 1, "last_seq": 0, "last": GENESIS, "dropped": 0, "dropped_hash": GENESIS, "files": {}, "breaks": []}


def read(workdir: str):
    """The anchor as a dict, None when there is none, or a string saying why it cannot be read.

    The file is plain text (no JSON: this runs on the hook's warm path)::

        cupcake-audit-anchor 1
        last <seq> <hash>
        dropped <seq> <hash>
        file <name> <first seq> <last seq> <hash>
        break <text>
    """
    try:
        fd = os.open(os.path.join(workdir, ANCHOR_NAME), _FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{ANCHOR_NAME} cannot be opened safely ({exc.strerror or exc})"
    try:
        data = os.read(fd, 1 << 20)
    finally:
        os.close(fd)
    lines = data.decode("utf-8", "replace").split("\n")
    if lines[0] != MAGIC:
        return f"{ANCHOR_NAME} is not an audit anchor"
    state = fresh()
    try:
        for line in lines[1:]:
            kind, _, rest = line.partition(" ")
            if kind == "last":
                seq, value = rest.split(" ")
                state["last_seq"], state["last"] = int(seq), value
            elif kind == "dropped":
                seq, value = rest.split(" ")
                state["dropped"], state["dropped_hash"] = int(seq), value
            elif kind == "file":
                name, first, last, value = rest.split(" ")
                state["files"][name] = [int(first), int(last), value]
            elif kind == "break":
                state["breaks"].append(rest)
            elif line:
                return f"{ANCHOR_NAME}: unknown line {line[:40]!r}"
    except ValueError:
        return f"{ANCHOR_NAME} is damaged"
    return state


def write(workdir: str, anchor: dict) -> None:
    from cupcake.stores.atomic_write import write_atomically

    lines = [
        MAGIC,
        f"last {anchor['last_seq']} {anchor['last']}",
        f"dropped {anchor['dropped']} {anchor['dropped_hash']}",
    ]
    lines += [f"file {name} {a} {b} {h}" for name, (a, b, h) in sorted(anchor["files"].items())]
    lines += ["break " + text.replace("\n", " ") for text in anchor["breaks"]]
    write_atomically(os.path.join(workdir, ANCHOR_NAME), ("\n".join(lines) + "\n").encode("utf-8", "replace"))


def note_break(anchor: dict, text: str) -> None:
    if len(anchor["breaks"]) < MAX_BREAKS:
        anchor["breaks"].append(text)
