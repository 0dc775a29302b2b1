"""``cupcake run --event <Event>``: the hook command. The only code on the hot path that touches
the real streams: it reads stdin, runs the pipeline, writes the rendered answer."""

from __future__ import annotations

import sys
import time

from cupcake import lean_os as os

RUN_OPTIONS = "--event <Event> [--agent NAME] [--fail-closed] [--jail] [--jail-unshare-net] [--timings]"
# Written by `cupcake sync` under fail_mode "closed": the mode is known before anything is imported,
# so even a Cupcake that cannot import its own modules blocks (exit 2).
FAIL_CLOSED_FLAG = "--fail-closed"
# Written by `cupcake sync --agent NAME --sandbox` on the before-tool hook: the OS layer (cupcake.jail).
# A run that cannot even start blocks then too: a command never runs outside the jail the user asked for.
JAIL_FLAG = "--jail"
JAIL_UNSHARE_NET_FLAG = "--jail-unshare-net"


def parse_args(args: list[str]) -> tuple[str | None, dict, str | None]:
    """(event, options, problem): a bad command line is reported in the answer, never a crash."""
    event: str | None = None
    problem: str | None = None
    options: dict = {"agent": None}
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--event" and i + 1 < len(args):
            event = args[i + 1]
            i += 2
            continue
        if arg == "--agent" and i + 1 < len(args):
            options["agent"] = args[i + 1]
            i += 2
            continue
        if arg.startswith("--event="):
            event = arg.split("=", 1)[1]
        elif arg.startswith("--agent="):
            options["agent"] = arg.split("=", 1)[1]
        elif arg == "--timings":
            options["timings"] = True
        elif arg == FAIL_CLOSED_FLAG:
            options["fail_closed"] = True
        elif arg == JAIL_FLAG:
            options["jail"] = True
        elif arg == JAIL_UNSHARE_NET_FLAG:
            options["jail"] = options["jail_unshare_net"] = True
        elif problem is None:
            problem = f"unknown argument {arg!r} to `cupcake run` (usage: cupcake run {RUN_OPTIONS})"
        i += 1
    if os.environ.get("CUPCAKE_TIMINGS"):
        options["timings"] = True
    return event or None, options, problem


def execute(raw: bytes, args, env, last_resort: bool = False, rehearsal=None):
    """Run the pipeline over one hook event; returns the context (its ``envelope`` is the answer).

    ``last_resort``: when a system will not stop after the deadline, write the answer and exit
    the process (only for the real command: a test in the same process must not exit).
    ``rehearsal`` (``cupcake.pipeline.rehearsal``): the same run with nothing recorded (explain, test, replay)."""
    from cupcake.pipeline.clock import AlarmClock
    from cupcake.pipeline.context import Context
    from cupcake.pipeline.plan import build_plan
    from cupcake.pipeline.runner import Failure, run_plan
    from cupcake.systems import REPLAN, builtin_systems, finish

    event, options, problem = parse_args(args)
    options["started"] = time.monotonic()
    if rehearsal is not None:
        options["rehearsal"] = rehearsal
    ctx = Context(raw=raw, event_arg=event, env=env, options=options)
    ctx.agent, unknown = _adapter(options["agent"])
    if options.get("fail_closed"):
        ctx.fail_mode = "closed"
    for text in filter(None, (problem, unknown)):
        ctx.failures.append(Failure("cli", text, True))
    clock = AlarmClock(last_resort=(lambda: _answer_and_exit(ctx)) if last_resort else None)
    run_plan(build_plan(builtin_systems()), ctx, finish=finish, clock=clock, replan=REPLAN)
    return ctx


def _adapter(name):
    """The agent's adapter, and the problem when ``--agent`` names none (then Claude Code's answers it)."""
    from cupcake import agents

    try:
        return agents.adapter(name or agents.DEFAULT), None
    except agents.UnknownAgent as exc:
        return agents.adapter(agents.DEFAULT), f"`cupcake run --agent`: {exc}"


def _answer_and_exit(ctx) -> None:
    """A system is still running well past the deadline and will not stop: answer now, and exit."""
    from cupcake.pipeline.runner import Failure
    from cupcake.stages.guard import answer_fd, undo_running
    from cupcake.systems import finish

    undo_running(ctx)
    name = ctx.current or "a system"
    ctx.failures.append(Failure(name, f"{name}: ran past the run's deadline and would not stop", not ctx.sealed, True))
    code = 0
    try:
        finish(ctx)
        stdout = ctx.envelope[0]
    except BaseException as exc:
        stdout, stderr, code = emergency(exc, bool(ctx.options.get("fail_closed") or ctx.options.get("jail")))
        if stderr:
            os.write(2, stderr)
    try:
        fd = answer_fd()
        while stdout:
            stdout = stdout[os.write(fd, stdout) :]
    finally:
        os._exit(code)


def closed_anyway(args) -> bool:
    """Whether a run that broke blocks: fail_mode "closed", or the OS layer (never run unjailed)."""
    return FAIL_CLOSED_FLAG in args or JAIL_FLAG in args or JAIL_UNSHARE_NET_FLAG in args


def emergency(exc: BaseException, closed: bool = False):
    """Last resort when even the guarantee failed: (stdout, stderr, exit code) naming the failure.
    fail_mode "closed" (``--fail-closed`` on the hook command line) blocks: exit 2, the reason on stderr."""
    from cupcake.cli.last_resort import last_resort

    return last_resort(exc, closed)


def main(args) -> int:
    from cupcake.input_limits import MAX_INPUT_BYTES

    try:
        raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)  # one byte more says it is too large
    except Exception:
        raw = b""
    try:
        ctx = execute(raw, args, os.environ, last_resort=True)
        stdout, stderr, code = ctx.envelope
        if ctx.options.get("timings"):
            stderr += "".join(f"{name:>22} {sec * 1000:8.3f} ms\n" for name, sec in ctx.timings).encode()
    except BaseException as exc:  # the edge: nothing escapes as a traceback
        stdout, stderr, code = emergency(exc, closed_anyway(args))
    try:
        sys.stdout.buffer.write(stdout)
        sys.stdout.buffer.flush()
        if stderr:
            sys.stderr.buffer.write(stderr)
            sys.stderr.buffer.flush()
    except (BrokenPipeError, OSError):
        pass
    return code
