"""A ``.cupcake/`` that cannot be written is a standing problem, not one run's: every run meets it again
(the policy cache, the session state, the audit trail all fail) until a person fixes it. Told on every
tool call, the same three lines drown everything else; so it is one message, which the answer carries
on the events that open a session or a turn (``response_routing.TOLD_ON``) and on no other. A write that fails while
the folder itself is fine (a lock held too long, a file planted in the way) is that run's own
problem and is told on that run, as before.

Only called once a write has failed: a run that writes fine never comes here."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.project import WORK_DIR


def unusable(root: str):
    """Why nothing can be written in ``<root>/.cupcake/`` (a probe file is created and removed), or None.
    A symbolic link there is not this: someone planted it, and every run says so where it meets it."""
    from cupcake.stores.safe_files import UnsafePath, create_temp, ensure_dir

    path = os.path.join(root, WORK_DIR)
    if os.path.islink(path):
        return None
    try:
        ensure_dir(path)
        dir_fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            fd, name = create_temp(dir_fd, ".probe")
            os.close(fd)
            os.unlink(name, dir_fd=dir_fd)
        finally:
            os.close(dir_fd)
    except UnsafePath as exc:
        return str(exc.strerror)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def message(reason: str) -> str:
    return (
        f"Cupcake: {WORK_DIR}/ cannot be written ({reason}): no policy cache, session state or audit trail is "
        "kept until a person fixes it (`cupcake doctor` says how). The policies are still enforced."
    )


def standing(ctx) -> bool:
    """After a write under ``.cupcake/`` failed: whether the folder itself cannot be written (then the
    run carries the one standing message, and the caller says nothing more)."""
    if ctx.standing:
        return True
    reason = unusable(ctx.root) if ctx.root else None
    if reason is None:
        return False
    ctx.standing.append(message(reason))
    return True
