"""Running one command within its limits.

The child gets /dev/null as stdin and runs in a session (process group) of its own. Its stdout and
stderr are read together in one loop (no deadlock, no threads), each keeping only its tail. The time
limit is ``min(timeout, deadline - now)``; when it runs out the whole group is stopped (SIGTERM, a
short grace, SIGKILL). When the child exits but something it started still holds the output pipes, the
pipes get a short grace, then that group is stopped too: reading never outlives the limit.
A program named without a ``/`` is found on PATH only, never in the (agent-writable) working directory;
the child's PATH keeps only its absolute entries, so ``shell = true`` scripts look programs up the same way.
``subprocess`` is imported only here, and only when a command runs.
"""

from __future__ import annotations

import os
import time

from cupcake.run_command.argv import SHELL, SHELL_VARIABLE, build_argv
from cupcake.run_command.capture import OutputTail
from cupcake.run_command.errors import UnsafeValue
from cupcake.run_command.locate import find_executable, place_name, resolve_working_dir, safe_path_entries
from cupcake.run_command.result import CommandResult
from cupcake.run_command.spec import read_spec

POLL_SLICE = 0.05  # how often the loop looks whether the child has exited while its pipes stay open
LEFTOVER_GRACE = 0.5  # after the child exits, how long pipes held by what it started may stay open
KILL_GRACE = 0.5  # between SIGTERM and SIGKILL to the group
FINAL_DRAIN = 0.25  # reading what is left in the pipes once the group is stopped


def run_command(spec: dict, values: dict, *, root: str, deadline: float, env=None) -> CommandResult:
    """Run the action's command for one event and say what happened.

    ``deadline`` is a ``time.monotonic()`` value the command may not outlive; ``env`` is the
    environment to start from (default: this process's). Raises
    ``CommandSpecError`` only when the action is written wrongly (unknown placeholder, bad key,
    working_dir outside ``root``); a command that fails, hangs or cannot start is a ``CommandResult``.
    """
    started = time.monotonic()
    checked = read_spec(spec)
    cwd = resolve_working_dir(root, checked.working_dir)
    end = min(started + checked.timeout, deadline)
    try:
        argv = build_argv(checked, values)
    except UnsafeValue as exc:
        result = CommandResult(checked.command, [], cwd=cwd, timeout=max(0.0, end - started))
        _not_started(result, str(exc))
        result.duration = time.monotonic() - started
        return result
    result = CommandResult(checked.command, argv, cwd=cwd, timeout=max(0.0, end - started))
    try:
        _execute(result, checked.shell, checked.env, checked.max_output, root, end, env)
    except Exception as exc:  # noqa: BLE001 - the guarantee: a result, never a traceback
        if result.pid is None:
            result.not_started = True
        result.error = f"internal error while running the command: {type(exc).__name__}: {exc}"
    result.duration = time.monotonic() - started
    return result


def shell_program(env: dict) -> str | None:
    """The shell for ``shell = true``: ``/bin/sh``, or the absolute path in ``CUPCAKE_SHELL`` (the hook's
    environment, which the agent does not set), e.g. to run the scripts with bash."""
    chosen = env.pop(SHELL_VARIABLE, None)
    if not chosen:
        return SHELL
    return chosen if os.path.isabs(chosen) else None


def _not_started(result: CommandResult, reason: str) -> None:
    result.not_started = True
    result.error = reason


def _execute(
    result: CommandResult, shell: bool, extra_env: dict, max_output: int, root: str, end: float, base_env=None
) -> None:
    if end <= time.monotonic():
        result.timed_out = True
        result.error = "no time was left before the hook's deadline"
        return
    cwd = result.cwd
    assert cwd is not None  # run_command gives every result resolve_working_dir's directory
    place = place_name(root, cwd)
    if not os.path.isdir(cwd):
        return _not_started(result, f"the working directory {place} does not exist")
    env = dict(os.environ if base_env is None else base_env)
    env["PWD"] = cwd
    env.update(extra_env)
    # relative PATH entries ("", ".", "bin") would find programs in the project the agent writes
    env["PATH"] = os.pathsep.join(safe_path_entries(env.get("PATH", os.defpath)))
    if shell:
        executable = shell_program(env)
        if executable is None:
            return _not_started(result, f"{SHELL_VARIABLE} must be an absolute path to a shell")
    else:
        executable, reason = find_executable(result.argv[0], cwd, env.get("PATH", os.defpath), place)
        if executable is None:
            assert reason is not None  # find_executable gives a reason with None
            return _not_started(result, reason)
    result.executable = executable
    for index, arg in enumerate(result.argv):
        if "\x00" in arg:
            return _not_started(result, f"argument {index} contains a NUL character, which no program can receive")

    import subprocess

    try:
        proc = subprocess.Popen(
            result.argv,
            executable=executable,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
        )
    except OSError as exc:
        return _not_started(result, _start_error(result.argv[0], exc))
    except (ValueError, TypeError) as exc:
        return _not_started(result, f"{result.argv[0]}: {exc}")
    result.pid = proc.pid
    out, err = OutputTail(max_output), OutputTail(max_output)
    try:
        _supervise(proc, result, out, err, end)
    finally:
        if proc.returncode is None:  # an exception on the way: leave nothing running
            _stop_group(proc)
        for stream in (proc.stdout, proc.stderr):
            try:
                if stream is not None:  # always pipes here
                    stream.close()
            except OSError:
                pass
        result.stdout, result.stderr = out.text(), err.text()


def _start_error(program: str, exc: OSError) -> str:
    import errno

    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOEXEC:
        return f"{program} cannot be executed: {reason} (a script without a #! line?)"
    if exc.errno == errno.ENOENT:
        return f"{program} cannot be executed: {reason} (is the interpreter on its #! line installed?)"
    return f"{program} cannot be executed: {reason}"


def _supervise(proc, result: CommandResult, out: OutputTail, err: OutputTail, end: float) -> None:
    import selectors
    import subprocess

    tails = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
    with selectors.DefaultSelector() as selector:
        for fd in tails:
            os.set_blocking(fd, False)
            selector.register(fd, selectors.EVENT_READ)
        exited_at = None
        leftovers = timed_out = False
        while selector.get_map():
            now = time.monotonic()
            if exited_at is None and proc.poll() is not None:
                exited_at = now
            if exited_at is not None and (now - exited_at >= LEFTOVER_GRACE or now >= end):
                leftovers = True
                break
            if now >= end:
                timed_out = True
                break
            wait = min(end - now, POLL_SLICE if exited_at is None else exited_at + LEFTOVER_GRACE - now)
            for key, _ in selector.select(max(wait, 0.0)):
                _read(key.fd, tails, selector)

        if not (leftovers or timed_out):  # both pipes closed: wait for the child itself
            try:
                proc.wait(timeout=max(end - time.monotonic(), 0.0))
            except subprocess.TimeoutExpired:
                timed_out = True

        if leftovers or timed_out:
            _stop_group(proc)
            drain_end = time.monotonic() + FINAL_DRAIN
            while selector.get_map() and time.monotonic() < drain_end:
                for key, _ in selector.select(drain_end - time.monotonic()):
                    _read(key.fd, tails, selector)

    if timed_out:
        result.timed_out = True
    else:
        result.exit_code = proc.returncode
        if leftovers:
            result.error = "processes it started kept its output open after it exited; they were stopped"


def _read(fd: int, tails: dict, selector) -> None:
    try:
        data = os.read(fd, 65536)
    except BlockingIOError:
        return
    except OSError:
        data = b""
    if data:
        tails[fd].add(data)
    else:
        selector.unregister(fd)


def _stop_group(proc) -> None:
    """SIGTERM to the child's whole process group, a short grace, then SIGKILL; reap the child."""
    import signal
    import subprocess

    group = proc.pid
    try:
        os.killpg(group, signal.SIGTERM)
    except OSError:
        pass
    grace_end = time.monotonic() + KILL_GRACE
    while time.monotonic() < grace_end:
        proc.poll()
        if proc.returncode is not None and not _group_exists(group):
            break
        time.sleep(0.02)
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
    try:
        proc.wait(timeout=1.0)
    except subprocess.TimeoutExpired:
        pass


def _group_exists(group: int) -> bool:
    """Whether a live process is left in the group (zombies waiting to be reaped do not count)."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    try:
        names = os.listdir("/proc")
    except OSError:  # no /proc (macOS): a zombie counts as alive, the grace simply runs out
        return True
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            continue
        # after the command name: state, ppid, pgrp, ...
        if len(fields) > 2 and fields[2] == str(group).encode() and fields[0] != b"Z":
            return True
    return False
