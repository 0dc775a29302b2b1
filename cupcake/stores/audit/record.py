"""What one run contributes to the audit trail: a plain dict, built from the sealed context.

The writer adds ``v``, ``seq`` and ``prev`` in front of it under the lock. Every text that came
from the agent, a policy or a command is masked (see ``mask``) and cut; file contents never
appear, only the path being written."""

from __future__ import annotations

import time

from cupcake import __version__
from cupcake.evaluate.compiled import Policy
from cupcake.pipeline.response import outcome as decision_of
from cupcake.pipeline.response import sent_text as message_of
from cupcake.stores.audit.mask import INPUT_CHARS, PROMPT_CHARS, SESSION_CHARS, mask_cut, summarize_input

KINDS = ("allow", "block", "approve", "ask", "feedback", "context", "error")

TEXT_CHARS = 12_000  # the agent's texts are capped at 10,000 already; this only bounds the odd one


def utc_stamp(seconds: float) -> str:
    """UTC, ISO 8601, milliseconds: ``2025-01-31T12:00:00.123Z`` (strings sort by time)."""
    millis = int(seconds * 1000) % 1000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{millis:03d}Z"


def _text(value, limit: int):
    return mask_cut(value, limit) if isinstance(value, str) else None


def _command(check: dict) -> dict:
    duration = check.get("duration")
    return {
        "policy": check.get("policy"),
        "command": _text(check.get("command"), INPUT_CHARS),
        "exit_code": check.get("exit_code"),
        "ms": round(duration * 1000, 1) if isinstance(duration, (int, float)) else None,
        "ok": check.get("ok") is True,
        "timed_out": check.get("timed_out") is True,
        "on_failure": check.get("on_failure"),
        "error": _text(check.get("error"), PROMPT_CHARS),
    }


def ext_notes(ctx) -> dict:
    """Notes that a part of Cupcake (or an integrator) keeps for the audit trail only, never shown to
    the agent: ``ctx.ext[<namespace>]["notes"]`` (e.g. ``cupcake.eval_feedback``: a malformed eval skipped)."""
    return {
        key: value["notes"]
        for key, value in ctx.ext.items()
        if isinstance(value, dict) and isinstance(value.get("notes"), list) and value["notes"]
    }


def build(ctx, now: float | None = None) -> dict:
    """The record of one run (everything but ``v``, ``seq`` and ``prev``)."""
    now = time.time() if now is None else now
    event = ctx.incoming
    session = event.session_id if event is not None else None
    tool = event.tool if event is not None else None
    policies = ctx.policies["policies"] if ctx.policies and ctx.policies.get("policies") else ()
    response = ctx.response
    started = ctx.options.get("started")
    return {
        "time": utc_stamp(now),
        "session": session[:SESSION_CHARS] if isinstance(session, str) else None,
        "event": ctx.event,
        "tool": tool[:SESSION_CHARS] if isinstance(tool, str) else None,
        "input": summarize_input(event),
        "agent": ctx.agent.NAME if ctx.agent is not None else None,
        "matched": [Policy(policies[i]).name for i in ctx.matched if i < len(policies)],
        "policy": ctx.hard.by if ctx.hard else None,
        "also": [by for by, _text in ctx.other_blocks],
        "decision": decision_of(response),
        "message": mask_cut(message_of(response), TEXT_CHARS),
        "context": mask_cut(response.context, TEXT_CHARS) if response is not None and response.context else "",
        "commands": [_command(c) for c in ctx.checks if isinstance(c, dict)],
        "failures": [
            {
                "system": f.system,
                "message": mask_cut(f.message, TEXT_CHARS),
                "decides": f.decides,
                "custom": getattr(f, "custom", False),
            }
            for f in ctx.failures
        ],
        "warnings": [mask_cut(w, TEXT_CHARS) for w in ctx.warnings],
        "notes": {key: [mask_cut(str(n), TEXT_CHARS) for n in notes] for key, notes in ext_notes(ctx).items()},
        "version": __version__,
        "ms": round((time.monotonic() - started) * 1000, 3) if isinstance(started, float) else None,
    }
