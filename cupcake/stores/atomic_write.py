"""Writing a file whole or not at all: a temporary file beside it, then a rename."""

from __future__ import annotations

import os


def write_atomically(path: str, data: bytes) -> None:
    """Readers see the old file or the new one, never a part; the temporary file never stays."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
