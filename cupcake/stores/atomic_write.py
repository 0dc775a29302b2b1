"""Writing a file whole or not at all: a fresh temporary file beside it, then a rename.

The temporary file has a random name and is created exclusively, never through a link; the folders
up to ``.cupcake`` must be real directories (see ``safe_files``)."""

from __future__ import annotations


def write_atomically(path: str, data: bytes) -> None:
    """Readers see the old file or the new one, never a part; the temporary file never stays."""
    from cupcake.stores.safe_files import write_whole

    write_whole(path, data)
