"""The fence around custom systems, with fake systems only: what they may change, and what is undone."""

from __future__ import annotations

import pytest

from cupcake.errors import DeadlineExceeded
from cupcake.pipeline.context import Context, HardDecision
from cupcake.pipeline.response import APPROVE, BLOCK, NONE, SOFT, Response
from cupcake.stages.guard import Guarded, GuardViolation


class Fake:
    def __init__(self, effect, guard=True):
        self.effect = effect
        self.guard = guard

    def should_process(self, ctx):
        return self.guard

    def process(self, ctx):
        return self.effect(ctx)


def context(**fields) -> Context:
    ctx = Context()
    ctx.payload = {}
    ctx.soft = ["lint"]
    ctx.contexts = ["ctx"]
    ctx.matched = [0, 2]
    for name, value in fields.items():
        setattr(ctx, name, value)
    return ctx


def run(effect, order=450, guard=True, **fields):
    ctx = context(**fields)
    Guarded(Fake(effect, guard), "fake", order).process(ctx)
    return ctx


def assign(name, value):
    return lambda ctx: setattr(ctx, name, value)


BLOCKED = HardDecision("block", "No sudo", "No sudo")

# (what, order, effect, fields before, what stands after the fenced system ran)
ALLOWED = [
    ("adds feedback", 450, lambda c: c.add_feedback("more"), {}, lambda c: c.soft == ["lint", "more"]),
    ("adds context", 450, lambda c: c.add_context("more"), {}, lambda c: c.contexts == ["ctx", "more"]),
    ("blocks", 450, lambda c: c.decide("block", "key", by="fake"), {}, lambda c: c.hard == ("block", "key", "fake")),
    (
        "tightens an approve to an ask",
        550,
        lambda c: c.decide("ask", "?", by="fake"),
        {"hard": HardDecision("approve", "ok", "p")},
        lambda c: c.hard == ("ask", "?", "fake"),
    ),
    (
        "a weaker decision is simply ignored",
        550,
        lambda c: c.decide("approve", "ok", by="fake"),
        {"hard": BLOCKED},
        lambda c: c.hard == BLOCKED,
    ),
    (
        "replaces a prepared answer with a block",
        650,
        assign("response", Response(BLOCK, text="no")),
        {"response": Response(SOFT, text="lint")},
        lambda c: (c.response.decision, c.response.text) == (BLOCK, "no"),
    ),
    (
        "warns after the seal",
        850,
        lambda c: c.warn("sent to splunk"),
        {"sealed": True, "response": Response(BLOCK, text="x")},
        lambda c: c.warnings == ["sent to splunk"] and c.response.decision == BLOCK,
    ),
    (
        "keeps its own data in ext",
        850,
        lambda c: c.ext.__setitem__("acme.count", 1),
        {"sealed": True},
        lambda c: c.ext == {"acme.count": 1},
    ),
]

REFUSED = [
    ("removes a block", 550, assign("hard", None), {"hard": BLOCKED}, 'it removed the block by "No sudo"'),
    (
        "replaces a block with an approve",
        550,
        assign("hard", ("approve", "ok", "me")),
        {"hard": BLOCKED},
        'it replaced the block by "No sudo" with approve by "me"',
    ),
    (
        "rewrites a block's text",
        550,
        assign("hard", ("block", "other", "No sudo")),
        {"hard": BLOCKED},
        "it replaced the block",
    ),
    ("sets hard to garbage", 450, assign("hard", "block"), {}, "set ctx.hard to 'block'"),
    ("drops feedback", 450, lambda c: c.soft.clear(), {}, "removed or rewrote what earlier systems put in ctx.soft"),
    ("rewrites feedback", 450, lambda c: c.soft.__setitem__(0, "fine"), {}, "ctx.soft"),
    ("replaces the feedback list", 450, assign("soft", None), {}, "ctx.soft"),
    ("adds a non-text message", 450, lambda c: c.soft.append(42), {}, "put something other than text in ctx.soft"),
    ("injects a matched policy", 450, lambda c: c.matched.append(1), {}, "changed ctx.matched"),
    ("hides a failure", 450, lambda c: c.failures.clear(), {"failures": ["earlier"]}, "changed ctx.failures"),
    ("opens fail_mode", 450, assign("fail_mode", "open"), {"fail_mode": "closed"}, "changed ctx.fail_mode"),
    ("moves the deadline", 450, assign("deadline", 10.0**12), {}, "changed ctx.deadline"),
    ("swaps the policies", 450, assign("policies", {}), {"policies": {"policies": []}}, "changed ctx.policies"),
    ("seals early", 450, assign("sealed", True), {}, "changed ctx.sealed"),
    (
        "sets the answer before it is prepared",
        450,
        assign("response", Response(BLOCK, text="x")),
        {},
        "set ctx.response before the answer is prepared (600)",
    ),
    (
        "loosens a prepared soft denial",
        650,
        assign("response", Response(NONE)),
        {"response": Response(SOFT, text="lint")},
        "it may only be replaced by a block",
    ),
    (
        "changes a prepared block in place",
        650,
        lambda c: setattr(c.response, "decision", APPROVE),
        {"response": Response(BLOCK, text="no")},
        "a block stands",
    ),
    (
        "changes the sealed answer",
        850,
        lambda c: setattr(c.response, "text", "other"),
        {"sealed": True, "response": Response(BLOCK, text="no")},
        "changed the answer after it was sealed (700)",
    ),
    (
        "decides after the seal",
        850,
        lambda c: c.decide("block", "late", by="fake"),
        {"sealed": True},
        "changed ctx.hard after the answer was sealed (700)",
    ),
    (
        "adds feedback after the seal",
        850,
        lambda c: c.add_feedback("late"),
        {"sealed": True},
        "added to ctx.soft after the answer was sealed (700); only warnings may be added",
    ),
    ("renders its own answer", 850, assign("envelope", (b"{}", b"", 0)), {"sealed": True}, "changed ctx.envelope"),
]


@pytest.mark.parametrize("what, order, effect, fields, stands", ALLOWED, ids=[a[0] for a in ALLOWED])
def test_what_a_custom_system_may_do(what, order, effect, fields, stands):
    ctx = run(effect, order, **fields)
    assert stands(ctx), what
    assert ctx.failures == []


@pytest.mark.parametrize("what, order, effect, fields, message", REFUSED, ids=[r[0] for r in REFUSED])
def test_what_a_custom_system_may_not_do_is_undone(what, order, effect, fields, message):
    ctx = context(**fields)
    names = ("soft", "matched", "failures", "hard", "fail_mode", "deadline", "sealed", "response", "policies")
    before = {name: (list(v) if isinstance(v := getattr(ctx, name), list) else v) for name in names}
    decision = ctx.response and (ctx.response.decision, ctx.response.text)
    with pytest.raises(GuardViolation, match="its changes were undone") as raised:
        Guarded(Fake(effect), "fake", order).process(ctx)
    assert message in str(raised.value)
    for name, value in before.items():
        assert getattr(ctx, name) == value, name
    assert (ctx.response and (ctx.response.decision, ctx.response.text)) == decision


def test_a_system_that_raises_has_its_changes_undone():
    def half_done(ctx):
        ctx.add_feedback("half")
        ctx.hard = None
        raise ConnectionError("backend down")

    ctx = context(hard=BLOCKED)
    with pytest.raises(ConnectionError):
        Guarded(Fake(half_done), "fake", 550).process(ctx)
    assert ctx.soft == ["lint"] and ctx.hard == BLOCKED


@pytest.mark.parametrize("returned", ["block", 0, False, Context()])
def test_process_must_return_none(returned):
    with pytest.raises(GuardViolation, match="process returned"):
        run(lambda ctx: returned)


@pytest.mark.parametrize("wanted", [None, 1, "yes"])
def test_should_process_must_return_a_bool(wanted):
    with pytest.raises(GuardViolation, match="should_process returned"):
        run(lambda ctx: None, guard=wanted)


def test_should_process_false_skips_process():
    ctx = run(lambda c: c.add_feedback("ran"), guard=False)
    assert ctx.soft == ["lint"]


def test_ending_the_process_is_a_failure_not_an_exit():
    def leave(ctx):
        raise SystemExit(0)

    with pytest.raises(GuardViolation, match="tried to end the process"):
        run(leave)


def test_a_system_that_returns_after_the_deadline_fails_and_is_undone():
    import time

    ctx = context(deadline=time.monotonic() + 0.01)

    def slow(c):
        c.add_feedback("late finding")
        time.sleep(0.03)

    with pytest.raises(DeadlineExceeded, match="ran past the run's deadline"):
        Guarded(Fake(slow), "fake", 450).process(ctx)
    assert ctx.soft == ["lint"]


def test_name_and_order_come_from_the_configuration():
    system = Fake(lambda c: None)
    guarded = Guarded(system, "acme-secrets", 450)
    assert (system.name, system.order, guarded.name, guarded.order, guarded.custom) == (
        "acme-secrets",
        450,
        "acme-secrets",
        450,
        True,
    )


def test_a_sink_that_does_not_decide_keeps_that():
    sink = Fake(lambda c: None)
    sink.decides = False
    assert Guarded(sink, "log", 850).decides is False
    assert Guarded(Fake(lambda c: None), "scan", 450).decides is True


def test_a_custom_system_sees_only_an_event_that_could_be_read():
    ctx = Context()
    assert Guarded(Fake(lambda c: None), "fake", 450).should_process(ctx) is False
    ctx.payload = {"hook_event_name": "Stop"}
    assert Guarded(Fake(lambda c: None), "fake", 450).should_process(ctx) is True


def test_a_message_meant_for_the_user_says_which_system_raised_it():
    from cupcake import CupcakeError

    def down(ctx):
        raise CupcakeError("Splunk is unreachable")

    with pytest.raises(CupcakeError, match="^fake: Splunk is unreachable$"):
        run(down)


def test_a_stricter_decision_set_as_a_plain_tuple_is_read_by_name_afterwards():
    ctx = run(assign("hard", ("block", "key", "fake")), 550, hard=HardDecision("approve", "ok", "p"))
    assert ctx.failures == []
    assert type(ctx.hard) is HardDecision and (ctx.hard.kind, ctx.hard.text, ctx.hard.by) == ("block", "key", "fake")
