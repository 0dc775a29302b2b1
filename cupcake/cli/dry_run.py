"""The policies' decision on one event without running anything: no command check runs, no state or
audit record is written, no context file is read (``explain`` and ``replay`` use it). Built-in
self-protection is not part of it: it is the same for every policy set."""

from __future__ import annotations

import time

from cupcake.agents.claude.recorded import event_of
from cupcake.evaluate.compiled import Policy
from cupcake.evaluate.conditions import candidates, holds
from cupcake.evaluate.event_view import EventView
from cupcake.evaluate.patterns import Patterns

HARD = ("block", "approve", "ask")


class Verdict:
    __slots__ = ("decision", "policy", "text", "matched", "view", "trace", "seconds", "skipped", "event")

    def __init__(self):
        self.decision = "allow"
        self.event = None
        self.policy = None
        self.text = ""
        self.matched: list = []
        self.view = None
        self.trace: list = []  # (policy name, file, line, [(condition, holds, why)], matched)
        self.seconds = 0.0
        self.skipped: list = []  # policies whose outcome needs a command run (``run_command``)


def load(root: str, env):
    """The compiled policy set of the project at ``root`` (None when it has no policy file)."""
    from cupcake.stores.policies.loader import load as load_policies

    loaded = load_policies(root, env)
    return None if loaded is None else loaded.compiled


def evaluate(compiled: dict, payload: dict, root: str, trace: bool = False) -> Verdict:
    verdict = Verdict()
    started = time.perf_counter()
    incoming = event_of(payload)
    event = verdict.event = incoming.name
    patterns = Patterns(compiled.get("sre"))
    view = verdict.view = EventView(incoming, root, None, patterns)
    policies = compiled.get("policies") or []
    soft = context = warned = False
    for i in candidates(compiled.get("index") or {}, event, view.tool, patterns):
        policy = Policy(policies[i])
        name, conditions, action, file, line = policy.name, policy.conditions, policy.action, policy.file, policy.line
        results = []
        ok = True
        for cond in conditions:
            try:
                held = holds(cond, view)
                why = why_of(cond, view, held) if trace else ""
            except Exception as exc:  # a condition that needs session state: not known here
                held, why = False, f"not evaluated: {type(exc).__name__}"
            results.append((cond, held, why))
            if not held:
                ok = False
                if not trace:
                    break
        if trace:
            verdict.trace.append((name, file, line, results, ok))
        if not ok:
            continue
        verdict.matched.append(name)
        kind = action.kind if action else None
        if kind in HARD and verdict.policy is None:
            verdict.decision, verdict.policy, verdict.text = kind, name, action.text or ""
        elif kind == "check":
            verdict.skipped.append(name)
        elif kind == "soft":
            soft = True
        elif kind == "context":
            context = True
        elif kind == "warn":
            warned = True
    if verdict.policy is None:
        verdict.decision = "feedback" if soft else "warn" if warned else "context" if context else "allow"
    verdict.seconds = time.perf_counter() - started
    return verdict


def why_of(cond, view, held: bool) -> str:
    """A short reason a condition held or not (``explain``)."""
    kind = cond[0] if cond else None
    if kind == "command":
        from cupcake.evaluate.command_match import command_matches, may_hold

        text = view.command
        if text is None:
            return "no command in this event"
        if not may_hold(cond, text.lower()):
            return "prefilter: the command cannot name " + "/".join(cond[1] or cond[8] or ())
        reasons = []
        for cmd in view.script().commands:
            reason = command_matches(cond, cmd, view)
            if reason is None:
                return f"matches {' '.join(cmd.argv)!r}" + (f" (via {'/'.join(cmd.via)})" if cmd.via else "")
            reasons.append(f"{' '.join(cmd.argv)!r}: {reason}")
        return "; ".join(reasons) or "the line runs no command"
    if kind in ("command_regex", "filepath_regex", "file_content_regex"):
        return f"/{cond[1]}/ {'found' if held else 'not found'}"
    if kind == "not":
        return "the inner condition " + ("does not hold" if held else "holds")
    if kind == "any":
        return "some alternative holds" if held else "no alternative holds"
    return "holds" if held else "does not hold"


def describe(cond) -> str:
    kind = cond[0] if cond else None
    if kind == "command":
        from cupcake.compile.command_condition import describe as describe_command

        return describe_command(cond)
    if kind in ("command_regex", "filepath_regex", "file_content_regex"):
        return f"{kind} /{cond[1]}/"
    if kind == "field":
        return f"field {'.'.join(cond[1])} {cond[2]} {cond[3]!r}"
    if kind in ("path", "secret", "sql", "hidden_code", "project_file"):
        from cupcake.evaluate.pack_match import describe as describe_pack

        return describe_pack(cond)
    if kind == "not":
        return f"not {describe(cond[1])}"
    if kind == "any":
        return "any of [" + "; ".join(describe(c) for c in cond[1]) + "]"
    return str(kind)
