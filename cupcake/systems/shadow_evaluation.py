"""950 · After the answer is sealed: the shadow candidate and the observed policies, evaluated on the
same event, recorded where they decide otherwise than the enforced set. Nothing here changes what the
agent is told.

Planned only when the compiled set has a candidate (``[shadow] candidate``) or observed policies
(``mode = "observe"``, ``[packs] observe``): every other run neither imports nor calls this module.
The evaluation is bounded by the run's deadline, and a failure is a warning for the user, never a
change of decision."""

from __future__ import annotations

import time

from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.systems._guards import evaluating

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.agents.event import Event
    from cupcake.pipeline.context import Context

NOTES = "cupcake.shadow"  # the namespace of its notes in the audit trail
# Decisions made before the policies are read: the candidate would meet exactly the same.
NOT_POLICIES = ("Cupcake self-protection", "eval_feedback (blocking)")


def planned(rest: list) -> list:
    """The rest of a run's plan with this system in its place."""
    system = ShadowEvaluation()
    return sorted([*rest, system], key=lambda s: s.order)


class ShadowEvaluation(BaseSystem):
    order = Stage.SHADOW_EVALUATION
    decides = False

    def should_process(self, ctx: Context) -> bool:
        if ctx.incoming is None or ctx.root is None or not isinstance(ctx.policies, dict):
            return False
        if ctx.decision_failures() or ctx.response is None:
            return False  # the enforced set was not evaluated: nothing to compare with
        return ctx.deadline is None or time.monotonic() < ctx.deadline

    def process(self, ctx: Context) -> None:
        from cupcake.evaluate.patterns import of as run_patterns
        from cupcake.shadow.evaluate import verdict

        started = time.perf_counter()
        policies, event, root = evaluating(ctx)  # should_process checked all three
        enforced = _enforced(ctx, policies)
        if enforced is None:
            return
        # The run's own: the compiled set's SRE programs hold the candidate's and the observed policies'
        # patterns too, so each regex and the Bash command are read once per run, whichever set asks.
        patterns = run_patterns(ctx)
        entry: dict = {}
        candidate = policies.get("shadow")
        if candidate is not None:
            found = verdict(candidate, event, root, patterns)
            differs = (found.decision, found.policy, found.matched) != (
                enforced["decision"],
                enforced["policy"],
                enforced["matched"],
            )
            if found.unknown:
                entry["unknown"] = found.unknown
            if differs:
                entry["candidate"] = {"decision": found.decision, "policy": found.policy, "matched": found.matched}
        observe = policies.get("observe")
        if observe is not None:
            found = verdict(observe, event, root, patterns)
            if found.actions:
                entry["observed"] = found.actions
            if found.unknown:
                entry.setdefault("unknown", []).extend(found.unknown)
        if "candidate" not in entry and "observed" not in entry:
            return
        entry["enforced"] = enforced
        _record(ctx, event, root, entry, time.perf_counter() - started)


def _enforced(ctx: Context, compiled: dict) -> dict | None:
    """What the enforced policies decided (None when something other than a policy decided)."""
    hard, response = ctx.hard, ctx.response
    assert response is not None  # should_process checked it
    if hard is not None and hard.by in NOT_POLICIES:
        return None
    policies = compiled.get("policies") or ()
    names = [policies[i][0] for i in ctx.matched if i < len(policies)]
    decision = {"none": "allow", "soft": "feedback"}.get(response.decision, response.decision)
    if decision == "allow" and response.context:
        decision = "context"
    return {"decision": decision, "policy": hard.by if hard is not None else None, "matched": names}


def _record(ctx: Context, event: Event, root: str, entry: dict, seconds: float) -> None:
    from cupcake import speedups
    from cupcake.shadow.log import LOG_NAME, append
    from cupcake.stores.audit import mask
    from cupcake.stores.audit.mask import mask_cut
    from cupcake.stores.audit.record import SESSION_CHARS, summarize_input, utc_stamp

    mask.use_forms(ctx.policies.get("sre") if ctx.policies is not None else None)
    session = event.session_id
    line = {
        "time": utc_stamp(time.time()),
        "session": session[:SESSION_CHARS] if isinstance(session, str) else None,
        "agent": event.agent,
        "event": event.name,
        "tool": event.tool,
        "input": summarize_input(event),
        **entry,
        "ms": round(seconds * 1000, 3),
    }
    notes = []
    if "candidate" in entry:
        notes.append(
            f"candidate: {entry['candidate']['decision']} ({entry['candidate']['policy'] or 'no policy'}), "
            f"enforced: {entry['enforced']['decision']} ({entry['enforced']['policy'] or 'no policy'})"
        )
    for name, would in entry.get("observed", {}).items():
        notes.append(f"observed {name}: would {would}")
    ctx.ext[NOTES] = {"notes": [mask_cut(n, 500) for n in notes]}
    try:
        append(root, speedups.json_dumps(line))
    except OSError as exc:
        ctx.warn(f"Cupcake: the shadow evaluation could not be recorded in .cupcake/{LOG_NAME}: {exc.strerror or exc}")
