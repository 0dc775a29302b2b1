"""What one hook call puts in the telemetry spool: a plain dict, built from the sealed context (hot path).

Only facts, cheaply: masking secrets, hashing identifiers and shaping the OTLP attributes are the
forwarder's work (``cupcake.telemetry.otlp``), off the hot path. Texts are cut here so a line stays small.
The ids of the span are drawn here, once, so a batch sent again after a lost acknowledgement carries the
same trace and span ids (a store that keys on them keeps one copy)."""

from __future__ import annotations

import os
import time

from cupcake import __version__
from cupcake.agents.facts import call_id, facts
from cupcake.evaluate.compiled import Policy
from cupcake.pipeline.response import outcome, sent_text

VERSION = 1
TEXT_CHARS = 2000  # a reason, a message
INPUT_CHARS = 500  # one value of the tool's input
PROMPT_CHARS = 200
ID_CHARS = 128

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
        text: str | None
        if kind in ("block", "soft", "approve", "ask"):
            text = action.text
        elif kind == "check":
            text = action.template
        else:
            text = None
        names.add(policy.name)
        out.append([policy.name, ACTIONS.get(kind, kind), _cut(text, TEXT_CHARS), policy.file, policy.line])
    hard = ctx.hard
    if hard is not None and hard.by not in names:
        out.append([hard.by, hard.kind, _cut(hard.text, TEXT_CHARS), None, None])
    return out


def _input(event) -> dict:
    out: dict = {}
    for key, value in event.tool_input.items():
        if isinstance(value, str) and len(out) < 12:
            out[key] = value[:INPUT_CHARS]
    if event.prompt is not None:
        out["prompt"] = event.prompt[:PROMPT_CHARS]
    return out


def build(ctx, now_ns: int | None = None) -> dict:
    """The record of one run."""
    now_ns = time.time_ns() if now_ns is None else now_ns
    started = ctx.options.get("started")
    elapsed = time.monotonic() - started if isinstance(started, float) else 0.0
    event = ctx.incoming
    env = ctx.env
    ids = os.urandom(24).hex()
    response = ctx.response
    hard = ctx.hard
    record = {
        "v": VERSION,
        "trace": ids[:32],
        "span": ids[32:],
        "start": now_ns - int(elapsed * 1e9),
        "end": now_ns,
        "event": ctx.event,
        "agent": ctx.agent.NAME if ctx.agent is not None else None,
        "decision": outcome(response),
        "by": hard.by if hard is not None else None,
        "reason": sent_text(response)[:TEXT_CHARS],
        "fired": _fired(ctx),
        "checks": [
            [c.get("policy"), c.get("ok") is True, c.get("exit_code"), c.get("timed_out") is True]
            for c in ctx.checks
            if isinstance(c, dict)
        ],
        "failures": [[f.system, _cut(f.message, TEXT_CHARS)] for f in ctx.failures],
        "warnings": len(ctx.warnings),
        "root": ctx.root,
        "user": env.get("USER") or env.get("LOGNAME"),
        "uid": os.getuid(),
        "parent": env.get("TRACEPARENT"),
        "cupcake": __version__,
    }
    if event is not None:
        record.update(
            tool=_cut(event.tool, ID_CHARS),
            agent_tool=_cut(event.agent_tool, ID_CHARS),
            call=call_id(event.payload),
            session=_cut(event.session_id, ID_CHARS),
            input=_input(event),
            **facts(event.agent, event.payload, env),
        )
    return record
