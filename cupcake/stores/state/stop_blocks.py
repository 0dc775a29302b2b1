"""The Stop loop cap: how many times in a row a session's Stop (or SubagentStop) was blocked.

A policy that blocks Stop sends the agent back to work; the agent then calls Stop again, saying a
stop hook is already active (``Event.stop_active``). If the policy keeps blocking, the agent never stops. So consecutive
blocked stops are counted per session (``.cupcake/state/<name>.<event>.stops``, a number); once
``[settings] stop_block_limit`` (default 5) stops in a row were blocked, the next one goes through
and the user is told why. A Stop without that flag starts a new count: the agent
stopped of its own accord, after new work.

Counting is best effort: when the file cannot be read or written the decision stands, with a warning.
"""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.pipeline.response import BLOCK, NONE, SOFT, Response

SUFFIX = ".stops"
DEFAULT_LIMIT = 5
_FLAGS = os.O_NOFOLLOW | os.O_CLOEXEC


def limit_of(settings: dict) -> int:
    limit = settings.get("stop_block_limit", DEFAULT_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        return DEFAULT_LIMIT
    return limit


def blocks_the_stop(response, active: bool) -> bool:
    """Whether Claude Code keeps the agent going for this answer (see DESIGN's Stop row)."""
    return response is not None and (response.decision == BLOCK or (response.decision == SOFT and not active))


def cap(ctx) -> None:
    """Called once the answer to a Stop or SubagentStop is prepared."""
    from cupcake.stores.state import names

    name = names.state_name(ctx.incoming.session_id)
    if name is None or ctx.root is None:
        return
    active = ctx.incoming.stop_active
    blocks = blocks_the_stop(ctx.response, active)
    if not blocks and not active:
        return  # nothing to count, nothing counted before
    from cupcake.errors import CupcakeError
    from cupcake.stores.state import store

    file = f"{name}.{ctx.event.lower()}{SUFFIX}"
    writes = ctx.options.get("rehearsal") is None  # a rehearsal reads the count and leaves it as it was
    try:
        dir_fd = store.open_state_dir(ctx.root, create=blocks and writes)
    except CupcakeError as exc:
        from cupcake.stores.workdir import standing

        if not standing(ctx):
            ctx.warnings.append(f"Cupcake: blocked stops could not be counted: {exc}")
        return
    if dir_fd is None:
        return
    try:
        count = _read(dir_fd, file) if active else 0
        if not blocks:
            if count and writes:
                _remove(dir_fd, file)
            return
        limit = limit_of(ctx.settings)
        if count >= limit:
            text = ctx.response.text
            ctx.response = Response(NONE, context=ctx.response.context)
            ctx.warnings.append(
                f"Cupcake: the agent was let stop: {count} stops in a row were blocked, the most allowed "
                f"([settings] stop_block_limit = {limit}). The policies still said:\n{text}"
            )
            if writes:
                _remove(dir_fd, file)
        elif writes:
            _write(dir_fd, file, count + 1)
    except OSError as exc:
        ctx.warnings.append(f"Cupcake: blocked stops could not be counted: {exc.strerror or exc}")
    finally:
        os.close(dir_fd)


def _read(dir_fd: int, file: str) -> int:
    try:
        fd = os.open(file, os.O_RDONLY | _FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        return 0
    try:
        data = os.read(fd, 32)
    finally:
        os.close(fd)
    text = data.decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else 0


def _write(dir_fd: int, file: str, count: int) -> None:
    fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _FLAGS, 0o600, dir_fd=dir_fd)
    try:
        os.write(fd, b"%d\n" % count)
    finally:
        os.close(fd)


def _remove(dir_fd: int, file: str) -> None:
    try:
        os.unlink(file, dir_fd=dir_fd)
    except FileNotFoundError:
        pass
