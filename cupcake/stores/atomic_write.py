"""The one way Cupcake writes a file whole: a fresh temporary file beside it, then a rename. Readers
see the old file or the new one, never a part, and the temporary file never stays.

The temporary file has a random name and is created exclusively (``O_EXCL|O_NOFOLLOW``), so a link
planted at a guessable name is never written through; the folders up to ``.cupcake`` must be real
directories (``safe_files``). Everything Cupcake writes whole goes through here: the policy cache, the
session index, the audit anchor, the entry-point cache, the policy files `init` saves, and, from
``sync``, the agents' hook files, their backups and ``.gitignore``."""

from __future__ import annotations

from cupcake import lean_os as os


def write_atomically(path: str, data: bytes, mode=None, follow_link: bool = False, durable: bool = False) -> None:
    """Replace ``path`` with ``data``.

    ``mode``: the new file's permissions (default 0600, what Cupcake's own files get; ``mode_of``
    keeps a person's file as it was). ``follow_link``: when ``path`` is a symbolic link, replace the
    file it points at and keep the link (a user's dotfile manager links settings files). ``durable``:
    flush the file and its directory to disk before returning (a person's files; Cupcake's own are
    rebuilt when lost, and a hook call must not wait for the disk)."""
    from cupcake.stores.safe_files import DIR_FLAGS, WORK_DIR_NAME, ensure_dir

    if follow_link:
        path = os.path.realpath(path)
    directory, base = os.path.split(os.path.abspath(path))
    if WORK_DIR_NAME not in directory.split(os.sep):
        os.makedirs(directory, exist_ok=True)  # a settings folder (.claude, .github/hooks): as the agent would
    ensure_dir(directory)
    dir_fd = os.open(directory, DIR_FLAGS)
    try:
        write_in(dir_fd, base, data, mode, durable)
    finally:
        os.close(dir_fd)


def write_in(dir_fd: int, base: str, data: bytes, mode=None, durable: bool = False) -> None:
    """``write_atomically`` inside a directory already opened safely (``dir_fd``)."""
    from cupcake.stores.safe_files import create_temp

    fd, tmp = create_temp(dir_fd, base)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if mode is not None:
                os.fchmod(fd, mode)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, base, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass
        raise
    if durable:
        try:
            os.fsync(dir_fd)
        except OSError:
            pass


def mode_of(path: str) -> int:
    """The existing file's permissions, else what a new file gets under the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask
