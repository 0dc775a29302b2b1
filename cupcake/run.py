"""``cupcake run --event <Event>``: the hook command. The only code on the hot path that touches
the real streams: it reads stdin, runs the pipeline, writes the rendered answer."""

from __future__ import annotations

import os
import sys
import time

RUN_OPTIONS = "--event <Event> [--timings]"


def parse_args(args):
    """(event, options, problem): a bad command line is reported in the answer, never a crash."""
    event, options, problem = None, {}, None
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--event" and i + 1 < len(args):
            event = args[i + 1]
            i += 2
            continue
        if arg.startswith("--event="):
            event = arg.split("=", 1)[1]
        elif arg == "--timings":
            options["timings"] = True
        elif problem is None:
            problem = f"unknown argument {arg!r} to `cupcake run` (usage: cupcake run {RUN_OPTIONS})"
        i += 1
    if os.environ.get("CUPCAKE_TIMINGS"):
        options["timings"] = True
    return event or None, options, problem


def execute(raw: bytes, args, env):
    """Run the pipeline over one hook event; returns the context (its ``envelope`` is the answer)."""
    from cupcake.pipeline.clock import AlarmClock
    from cupcake.pipeline.context import Context
    from cupcake.pipeline.plan import build_plan
    from cupcake.pipeline.runner import Failure, run_plan
    from cupcake.systems import builtin_systems, finish

    event, options, problem = parse_args(args)
    options["started"] = time.monotonic()
    ctx = Context(raw=raw, event_arg=event, env=env, options=options)
    if problem:
        ctx.failures.append(Failure("cli", problem, True))
    run_plan(build_plan(builtin_systems()), ctx, finish=finish, clock=AlarmClock())
    return ctx


def emergency(exc: BaseException) -> bytes:
    """Last resort when even the guarantee failed: a well-formed answer that names the failure."""
    import json

    text = f"Cupcake: internal error, no policy was enforced for this event: {type(exc).__name__}: {exc}"
    return json.dumps({"systemMessage": text}, ensure_ascii=False).encode("utf-8", "replace") + b"\n"


def main(args) -> int:
    try:
        raw = sys.stdin.buffer.read()
    except Exception:
        raw = b""
    try:
        ctx = execute(raw, args, os.environ)
        stdout, stderr, code = ctx.envelope
        if ctx.options.get("timings"):
            stderr += "".join(f"{name:>22} {sec * 1000:8.3f} ms\n" for name, sec in ctx.timings).encode()
    except BaseException as exc:  # the edge: nothing escapes as a traceback
        stdout, stderr, code = emergency(exc), b"", 0
    try:
        sys.stdout.buffer.write(stdout)
        sys.stdout.buffer.flush()
        if stderr:
            sys.stderr.buffer.write(stderr)
            sys.stderr.buffer.flush()
    except (BrokenPipeError, OSError):
        pass
    return code
