"""What a recorded call does not tell (``cupcake replay``): a condition that reads something the record
never kept cannot be judged, so replay names the call instead of guessing.

The audit log keeps a masked summary of each call (``cupcake.stores.audit.record``): the command and
the file path, cut at 500 characters, and never a file's contents; a transcript keeps the whole tool
input. Neither keeps the session's state at the time. Conditions are judged three-valued here: true,
false, or None (not recorded); a policy whose known conditions all hold and whose others are unknown
may or may not have matched, and that is what makes a call unjudgeable. Side effects never decide,
so policies that only record or notify are left out. The decision itself is never made here: the
rehearsed pipeline makes it (``cupcake.cli.rehearse``)."""

from __future__ import annotations

from cupcake.agents.recorded import INPUT_FIELD, KEPT_FIELDS, TRANSCRIPT_FIELDS
from cupcake.evaluate.compiled import Policy

CUT = "…"  # the audit log's mark of a value cut at its limit
MASK = "***"  # what the audit log puts in place of a secret
STATE = "the session's state at the time is not recorded"
CONTENTS = "file contents are not recorded"
# Which value each condition reads from tool_input (the path keys: whichever is present).
_READS = {
    "command_regex": ("command",),
    "command": ("command",),
    "filepath_regex": ("file_path", "notebook_path", "path"),
    # the packs' conditions (cupcake.compile.pack_conditions)
    "path": ("file_path", "notebook_path", "path", "command"),
    "sql": ("command", "sql", "query"),
    "hidden_code": ("command",),
}


class Record:
    """What a recorded call kept: ``complete`` (every tool_input key, as sent: a transcript), or the
    keys an audit record kept, and those it cut or masked."""

    __slots__ = ("complete", "kept", "altered")

    def __init__(self, tool_input: dict, complete: bool):
        self.complete = complete
        self.kept = frozenset(tool_input)
        self.altered = frozenset(
            ()
            if complete
            else (k for k, v in tool_input.items() if isinstance(v, str) and (v.endswith(CUT) or MASK in v))
        )

    def gap(self, cond):
        """Why the record cannot tell whether this (simple) condition holds, or None when it can."""
        kind = cond[0]
        if kind in ("state_exists", "state_missing"):
            return STATE
        if kind in ("file_content_regex", "secret"):
            return None if self.complete else CONTENTS
        if kind == "field":
            path = cond[1]
            if path[0] in KEPT_FIELDS or (self.complete and path[0] in TRANSCRIPT_FIELDS):
                return None
            if path[0] == INPUT_FIELD and len(path) > 1 and path[1] in self.kept:
                return self._altered(path[1])
            return f"{'.'.join(path)} is not recorded"
        for key in _READS.get(kind, ()):
            if key in self.kept:
                return self._altered(key)
        return None

    def _altered(self, key: str):
        if key in self.altered:
            return f"the recorded {key} was cut or masked"
        return None


def unjudged(ctx, record: Record) -> list:
    """``"<policy>: <what is not recorded>"`` for each candidate policy of the rehearsed run ``ctx``
    whose match the record cannot decide (empty: the call can be judged)."""
    from cupcake.evaluate.conditions import event_candidates
    from cupcake.evaluate.event_view import EventView
    from cupcake.evaluate.patterns import of as run_patterns

    if ctx.policies is None or ctx.incoming is None:
        return []
    patterns = run_patterns(ctx)
    view = EventView(ctx.incoming, ctx.root, ctx.state, patterns)
    policies = ctx.policies["policies"]
    found = []
    for i in event_candidates(ctx.policies, ctx.incoming, patterns):
        policy = Policy(policies[i])
        action = policy.action
        if action.kind == "state" or (action.kind == "check" and action.on_failure == "ignore"):
            continue  # a side effect: it never decides
        why: list = []
        if _all(policy.conditions, view, record, why) is None:
            found.append(f"{policy.name}: {why[0]}")
    return found


def _all(conditions, view, record, why) -> bool | None:
    result: bool | None = True
    for cond in conditions:
        held = _holds(cond, view, record, why)
        if held is False:
            return False
        if held is None:
            result = None
    return result


def _holds(cond, view, record, why):
    from cupcake.evaluate.conditions import holds

    kind = cond[0]
    if kind == "not":
        inner = _holds(cond[1], view, record, why)
        return None if inner is None else not inner
    if kind == "any":
        results = [_holds(c, view, record, why) for c in cond[1]]
        if True in results:
            return True
        return None if None in results else False
    gap = record.gap(cond)
    if gap is not None:
        why.append(gap)
        return None
    return holds(cond, view)
