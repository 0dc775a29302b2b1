"""600 · Turn the two passes into one transport-neutral Response, with seed 000's exact texts."""

from __future__ import annotations

from cupcake.pipeline import answer_text as feedback
from cupcake.pipeline.order import Stage
from cupcake.pipeline.response import APPROVE, ASK, BLOCK, NONE, SOFT, Response
from cupcake.pipeline.system import BaseSystem
from cupcake.systems._guards import can_evaluate

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from collections.abc import Sequence

    from cupcake.pipeline.context import Context, HardDecision


class ResponsePreparation(BaseSystem):
    order = Stage.RESPONSE_PREPARATION

    def should_process(self, ctx: Context) -> bool:
        # A self-protection block stands even when the policies could not be evaluated.
        return can_evaluate(ctx) or ctx.hard is not None

    def process(self, ctx: Context) -> None:
        outputs = [c.get(k) for c in ctx.checks for k in ("stdout", "stderr")]
        # The other checks that block the call too come first among the further findings.
        soft = [text for _by, text in ctx.other_blocks] + ctx.soft if ctx.other_blocks else ctx.soft
        assert ctx.agent is not None  # the command sets the adapter before the pipeline runs
        ctx.response = prepare(ctx.hard, soft, ctx.contexts, outputs, ctx.agent.ANSWER_CAP)
        if ctx.event in ("Stop", "SubagentStop") and ctx.incoming is not None:
            from cupcake.stores.state.stop_blocks import cap  # the Stop loop cap

            cap(ctx)
        hard = ctx.hard
        if hard is not None and hard.kind == "block" and ctx.event == "PreToolUse" and _a_code_can_lift(ctx, hard.by):
            from cupcake.approvals.at_block import offer  # a code a person can use to let it through

            offer(ctx)
        elif "cupcake.approvals" in ctx.ext:
            from cupcake.approvals.at_block import tell_used

            tell_used(ctx)


def _a_code_can_lift(ctx: Context, name: str) -> bool:
    """The block came from a policy in service (not self-protection, a gate or a custom system), and
    nothing else blocks the call too (``other_blocks``: self-protection, whose block no person's code
    lifts; the scan looks for no grant then, so a code would be a promise no grant keeps)."""
    if ctx.other_blocks:
        return False
    policies = ctx.policies.get("policies") if isinstance(ctx.policies, dict) else None
    return any(policies[i][0] == name for i in ctx.matched) if policies else False


def prepare(
    hard: HardDecision | None,
    soft: list[str],
    contexts: list[str],
    outputs: Sequence[str | None] = (),
    cap: int = 10**9,
) -> Response:
    """The Response; a text over the agent's ``cap`` is cut in the middle of the longest command output."""
    pieces = [o for o in outputs if o] + list(soft)
    context = feedback.cap("\n\n".join(contexts), contexts, cap) if contexts else ""
    if hard is not None:
        kind, text, _policy = hard
        if kind == "block":
            return Response(
                BLOCK, text=feedback.cap(feedback.block_text(text, soft), pieces + [text], cap), context=context
            )
        extra = feedback.cap(feedback.soft_text(soft), pieces, cap) if soft else ""
        return Response(APPROVE if kind == "approve" else ASK, reason=text, soft_text=extra, context=context)
    if soft:
        return Response(SOFT, text=feedback.cap(feedback.soft_text(soft), pieces, cap), context=context)
    return Response(NONE, context=context)
