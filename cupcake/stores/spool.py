"""The telemetry spool: what a run does for telemetry, all of it, in this one module (hot path).

1. **The record.** One JSON line per hook call, built from the sealed context: only facts, cut short.
   Masking secrets, hashing identifiers and shaping OTLP are the forwarder's work (``cupcake.telemetry``).
   The span's ids are drawn here, once, so a batch sent again after a lost acknowledgement carries the
   same trace and span ids (a store that keys on them keeps one copy).
2. **The append**, to ``.cupcake/telemetry/spool.jsonl``: open, lock, check, one ``O_APPEND`` write, close.
   The forwarder takes the file over by renaming it to ``batch.<ns>.jsonl`` while holding the same lock: a
   run that opened the old file before the rename sees, once it has the lock, that the name now stands
   for another file, and appends to the new one. So no line lands in a batch after it was claimed, and
   none is lost. The lock is a POSIX record lock (``os.lockf``: no ``fcntl`` import), which needs a file
   opened for writing, so an agent kept off ``.cupcake/`` by the operating system cannot take it; a run
   waits for it briefly (the forwarder holds it for one rename), then appends without it. When the spool
   has grown past its cap (the forwarder can neither send nor keep up), the line is not written and one
   byte is appended to ``overflow`` instead: the forwarder counts it as dropped, and `doctor` says so.
3. **The trigger.** A run looks at the time of ``forwarder.started``: younger than the interval, that is
   all. Otherwise it takes that file's lock, looks again (another run may have just started one), marks
   it and starts ``python -m cupcake.telemetry.forward --background <root>`` in a session of its own,
   stdin from ``/dev/null``, output to ``forwarder.log``: the agent's pipes are not passed on, so the agent
   never waits for it, and killing the hook's process group does not stop it. The forwarder keeps the
   file young while it works, so runs start no second one. ``os.posix_spawn``: no ``subprocess`` import.

Everything here uses ``os``, ``sys`` and ``time`` only: one module load and about 40 µs of work a run.
"""

from __future__ import annotations

import sys
import time

from cupcake import __version__
from cupcake import lean_os as os
from cupcake.agents import call_id, facts
from cupcake.evaluate.compiled import Policy
from cupcake.pipeline.response import outcome, sent_text

DIR = "telemetry"
SPOOL = "spool.jsonl"
OVERFLOW = "overflow"
BATCH_PREFIX = "batch."
BATCH_SUFFIX = ".jsonl"
STAMP = "forwarder.started"
LOG = "forwarder.log"
FORWARDER = "cupcake.telemetry.forward"

VERSION = 1  # of the record
TEXT_CHARS = 2000  # a reason, a message
INPUT_CHARS = 500  # one value of the tool's input
INPUT_VALUES = 12
PROMPT_CHARS = 200
ID_CHARS = 128
LOCK_TRIES = 20  # about 2 ms in all
_PAUSE = 0.0001
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
_DIRECTORY = 0o040000  # stat.S_IFDIR, without importing stat

# The compiled action kinds, as a reader of a span names them.
ACTIONS = {
    "block": "block",
    "soft": "feedback",
    "approve": "approve",
    "ask": "ask",
    "context": "context",
    "check": "run_command",
    "state": "update_state",
}


def directory(workdir: str) -> str:
    """``.cupcake/telemetry`` of a project's work directory."""
    return os.path.join(workdir, DIR)


# ## 1. the record ###########################################################################################


def _cut(value, limit: int):
    return value[:limit] if isinstance(value, str) else None


def _fired(ctx) -> list:
    """Every policy or rule whose conditions held, in list order: [name, action, text, file, line]; then
    a decision no policy took (self-protection, the evaluator's gate, a custom system)."""
    out = []
    names = set()
    policies = ctx.policies["policies"] if ctx.policies and ctx.policies.get("policies") else ()
    for i in ctx.matched:
        if i >= len(policies):
            continue
        policy = Policy(policies[i])
        action = policy.action
        kind = action.kind
        text: str | None = None
        if kind in ("block", "soft", "approve", "ask"):
            text = action.text
        elif kind == "check":
            text = action.template
        names.add(policy.name)
        out.append([policy.name, ACTIONS.get(kind, kind), _cut(text, TEXT_CHARS), policy.file, policy.line])
    hard = ctx.hard
    if hard is not None and hard.by not in names:
        out.append([hard.by, hard.kind, _cut(hard.text, TEXT_CHARS), None, None])
    return out


def _input(event) -> dict:
    out: dict = {}
    for key, value in event.tool_input.items():
        if isinstance(value, str) and len(out) < INPUT_VALUES:
            out[key] = value[:INPUT_CHARS]
    if event.prompt is not None:
        out["prompt"] = event.prompt[:PROMPT_CHARS]
    return out


def record(ctx, now_ns: int | None = None) -> dict:
    """The record of one run."""
    now_ns = time.time_ns() if now_ns is None else now_ns
    started = ctx.options.get("started")
    elapsed = time.monotonic() - started if isinstance(started, float) else 0.0
    event = ctx.incoming
    env = ctx.env
    ids = os.urandom(24).hex()
    hard = ctx.hard
    out = {
        "v": VERSION,
        "trace": ids[:32],
        "span": ids[32:],
        "start": now_ns - int(elapsed * 1e9),
        "end": now_ns,
        "event": ctx.event,
        "agent": ctx.agent.NAME if ctx.agent is not None else None,
        "decision": outcome(ctx.response),
        "by": hard.by if hard is not None else None,
        "reason": sent_text(ctx.response)[:TEXT_CHARS],
        "fired": _fired(ctx),
        "checks": [
            [c.get("policy"), c.get("ok") is True, c.get("exit_code"), c.get("timed_out") is True]
            for c in ctx.checks
            if isinstance(c, dict)
        ],
        "failures": [[f.system, _cut(f.message, TEXT_CHARS)] for f in ctx.failures],
        "warnings": len(ctx.warnings),
        "root": ctx.root,
        "user": _cut(env.get("USER") or env.get("LOGNAME"), ID_CHARS),
        "uid": os.getuid(),
        "parent": _cut(env.get("TRACEPARENT"), ID_CHARS),
        "cupcake": __version__,
    }
    if event is not None:
        out.update(
            tool=_cut(event.tool, ID_CHARS),
            agent_tool=_cut(event.agent_tool, ID_CHARS),
            call=call_id(event.payload),
            session=_cut(event.session_id, ID_CHARS),
            input=_input(event),
            **facts(event.agent, event.payload, env),
        )
    return out


# ## 2. the append ###########################################################################################


def _lock(fd: int) -> bool:
    for _ in range(LOCK_TRIES):
        try:
            os.lockf(fd, os.F_TLOCK, 0)
            return True
        except OSError:
            time.sleep(_PAUSE)
    return False


def append_locked(path: str, data: bytes, cap: int | None = None) -> bool:
    """Append ``data`` to ``path`` (created 0600) under its lock, unless that would take it past ``cap``
    bytes; False when it did not fit. A name that was claimed (renamed) meanwhile is opened again."""
    for _ in range(4):
        fd = os.open(path, _APPEND, 0o600)
        try:
            locked = _lock(fd)
            st = os.fstat(fd)
            if locked:
                try:
                    if os.stat(path).st_ino != st.st_ino:
                        continue  # claimed while we waited: append to the file that has the name now
                except FileNotFoundError:
                    continue
            if cap is not None and st.st_size + len(data) > cap:
                return False
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            return True
        finally:
            os.close(fd)  # releases the lock
    raise OSError(f"{os.path.basename(path)} kept being renamed while Cupcake appended to it")


def _real_dirs(workdir: str, folder: str) -> bool:
    """Both folders exist and neither is a symbolic link (two ``lstat`` calls, no ``stat`` import)."""
    try:
        return all(os.lstat(p).st_mode & 0o170000 == _DIRECTORY for p in (workdir, folder))
    except OSError:
        return False


def append(workdir: str, line: bytes, cap: int) -> bool:
    """Append one record (a JSON line ending in a newline) to the project's spool; False when the spool
    is full (the record was counted in ``overflow`` instead). OSError when the folder cannot be written,
    or is a symbolic link anywhere up to ``.cupcake``."""
    folder = directory(workdir)
    if not _real_dirs(workdir, folder):
        from cupcake.stores.safe_files import ensure_dir

        ensure_dir(folder)  # creates what is missing; refuses a symbolic link
    written = append_locked(os.path.join(folder, SPOOL), line, cap)
    if not written:
        append_locked(os.path.join(folder, OVERFLOW), b"x")
    return written


# ## 3. the trigger ##########################################################################################


def due(stamp: str, interval: float, now: float) -> bool:
    try:
        st = os.stat(stamp)
    except FileNotFoundError:
        return True
    # a stamp from the future (the clock was set back) does not hold the forwarder off for ever
    return not st.st_size or not (0 <= now - st.st_mtime < interval)


def _claim(stamp: str, interval: float) -> bool:
    """Mark the stamp as this run's, unless another run did within the interval."""
    fd = os.open(stamp, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        try:
            os.lockf(fd, os.F_TLOCK, 0)
        except OSError:
            return False  # another run is claiming it now
        st = os.fstat(fd)
        if st.st_size and 0 <= time.time() - st.st_mtime < interval:
            return False
        os.pwrite(fd, b"1", 0)
        os.utime(fd)
        return True
    finally:
        os.close(fd)


def forwarder_command(root: str) -> list[str]:
    """The forwarder's command line: this interpreter, as this run was started."""
    flags = ["-I"] if sys.flags.isolated else []
    return [sys.executable, *flags, "-m", FORWARDER, "--background", root]


def start_forwarder(root: str, folder: str, env) -> None:
    log = os.open(
        os.path.join(folder, LOG), os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600
    )
    try:
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, log, 1),
            (os.POSIX_SPAWN_DUP2, log, 2),
        ]
        os.posix_spawn(sys.executable, forwarder_command(root), dict(env), file_actions=actions, setsid=True)
    finally:
        os.close(log)


def maybe_start(workdir: str, root: str, interval: float, env) -> bool:
    """Start a forwarder when none was started within ``interval`` seconds; whether one was started."""
    folder = directory(workdir)
    stamp = os.path.join(folder, STAMP)
    if not due(stamp, interval, time.time()) or not _claim(stamp, interval):
        return False
    start_forwarder(root, folder, env)
    return True
