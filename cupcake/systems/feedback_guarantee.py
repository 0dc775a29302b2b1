"""700 · Every run ends with exactly one well-formed answer (seed 002, adapted).

If a system that decides failed, the answer names what failed, and ``fail_mode`` says whether it
blocks ("closed") or only tells the user ("open": never an allow, the agent's own permission flow
still applies). A hook event Cupcake cannot read (too large, too deep, not UTF-8 …: the agent may
have made it so) blocks whatever fail_mode says. A prepared answer stricter than that is never loosened: a block always stands,
and under "open" so do a soft denial and a question to the person; the failure is then a warning.
Then the answer is sealed."""

from __future__ import annotations

from cupcake.pipeline.order import Stage
from cupcake.pipeline.response import ASK, BLOCK, ERROR, NONE, SOFT, Response
from cupcake.pipeline.system import BaseSystem

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.context import Context
    from cupcake.pipeline.runner import Failure


class FeedbackGuarantee(BaseSystem):
    order = Stage.FEEDBACK_GUARANTEE

    def process(self, ctx: Context) -> None:
        ensure_response(ctx)


def failure_text(ctx: Context, failures: list[Failure]) -> str:
    what = "\n".join(f.message for f in failures)
    if any(f.blocks for f in failures):  # whatever fail_mode says: the agent may have made it unreadable
        return f"Cupcake could not read this hook event, so it is blocked: {what}"
    if all(f.system == "policies" for f in failures):  # errors in the policy files, fail_mode "closed"
        return f'Cupcake: out of service until fixed, so this is blocked (fail_mode "closed"):\n{what}'
    if all(f.custom for f in failures):
        if ctx.fail_mode == "closed":
            return f'Cupcake: a custom system failed, so this is blocked (fail_mode "closed"): {what}'
        return f'Cupcake: a custom system failed, so its checks were not enforced for this event (fail_mode "open"): {what}'
    if ctx.fail_mode == "closed":
        return f'Cupcake: could not evaluate policies, so this is blocked (fail_mode "closed"): {what}'
    return f'Cupcake: could not evaluate policies, so none was enforced for this event (fail_mode "open"): {what}'


def _warning(failure: Failure) -> str:
    if failure.system == "policies":  # errors in the policy files, under a block that stands
        return f"Cupcake: out of service until fixed:\n{failure.message}"
    return f"Cupcake: {failure.message}"


def stands(response: Response | None, fail_mode: str) -> bool:
    """Whether a prepared answer is at least as strict as the failure answer fail_mode gives."""
    if response is None:
        return False
    if response.decision == BLOCK:
        return True
    return fail_mode != "closed" and response.decision in (SOFT, ASK)


def ensure_response(ctx: Context) -> None:
    """Idempotent: also called by the runner's ``finally`` when the pipeline itself broke."""
    if ctx.sealed:
        return
    failures = ctx.decision_failures()
    if failures and ctx.configured is not False:
        if stands(ctx.response, ctx.fail_mode):  # a failure never loosens what was prepared
            if all(f.custom for f in failures):  # the policies were evaluated: only these failed
                ctx.warnings.extend(_warning(f) for f in failures)
            else:
                ctx.warnings.append(failure_text(ctx, failures))
        else:
            text = failure_text(ctx, failures)
            closed = ctx.fail_mode == "closed" or any(f.blocks for f in failures)
            ctx.response = Response(ERROR, text=text, fail_closed=closed)
    elif ctx.response is None:
        if ctx.configured is False:
            ctx.response = Response(NONE)  # no policy file: Cupcake does nothing
        else:
            ctx.response = Response(
                ERROR,
                text="Cupcake: no answer was prepared for this event (a pipeline system was disabled or skipped)",
                fail_closed=ctx.fail_mode == "closed",
            )
    ctx.sealed = True
