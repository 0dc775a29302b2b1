"""The warm side of shadow runs: one event through a candidate or observed set, nothing run.

The same evaluation as the enforced passes (each candidate policy's conditions, then the first hard
action in list order), with three differences: no ``run_command`` runs (its outcome is "not known"),
no context is read from a file or command, and a condition that needs what the run did not load
(session state) is "not known". What is not known is said, never guessed: such an event is recorded
as not comparable rather than as a difference."""

from __future__ import annotations

from cupcake.evaluate.compiled import Policy
from cupcake.evaluate.conditions import all_hold, event_candidates
from cupcake.evaluate.event_view import EventView

HARD = ("block", "approve", "ask")


class Verdict:
    """What one set decides on one event: ``decision`` (allow, block, approve, ask, feedback,
    context), the ``policy`` that decided, the ``matched`` names in list order, and ``unknown``
    (policies whose outcome this evaluation cannot know, with why)."""

    __slots__ = ("decision", "policy", "matched", "unknown", "actions")

    def __init__(self):
        self.decision = "allow"
        self.policy = None
        self.matched: list[str] = []
        self.unknown: list[str] = []
        self.actions: dict[str, str] = {}  # matched name -> what it would do (block, ask, feedback, ...)


# A compiled action kind -> what it would do, as the audit trail names decisions.
WOULD = {"block": "block", "approve": "approve", "ask": "ask", "soft": "feedback", "context": "context"}


def verdict(compiled_set: dict, incoming, root: str, patterns, state=None) -> Verdict:
    """``compiled_set`` (``policies``, ``index``, ``agents``) on the canonical event ``incoming``."""
    found = Verdict()
    policies = compiled_set["policies"]
    view = EventView(incoming, root, state, patterns)
    soft = context = False
    for i in event_candidates(compiled_set, incoming, patterns):
        policy = Policy(policies[i])
        try:
            if not all_hold(policy.conditions, view):
                continue
        except Exception as exc:  # a condition this evaluation cannot answer (state not loaded, ...)
            found.unknown.append(f"{policy.name}: a condition could not be evaluated ({type(exc).__name__})")
            continue
        action = policy.action
        kind = action.kind
        found.matched.append(policy.name)
        if kind == "check":
            found.actions[policy.name] = "check"
            if action.on_failure != "ignore":
                found.unknown.append(f"{policy.name}: its run_command is not run in a shadow evaluation")
            continue
        if kind in WOULD:
            found.actions[policy.name] = WOULD[kind]
        if kind in HARD and found.policy is None:
            found.decision, found.policy = kind, policy.name
        elif kind == "soft":
            soft = True
        elif kind == "context":
            context = True
    if found.policy is None:
        found.decision = "feedback" if soft else "context" if context else "allow"
    return found
