"""600 · Turn the two passes into one transport-neutral Response, with seed 000's exact texts."""

from __future__ import annotations

from cupcake import feedback
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.response import APPROVE, ASK, BLOCK, NONE, SOFT, Response
from cupcake.systems._guards import can_evaluate


class ResponsePreparation(BaseSystem):
    name = "response_preparation"
    order = Stage.RESPONSE_PREPARATION

    def should_process(self, ctx) -> bool:
        return can_evaluate(ctx)

    def process(self, ctx) -> None:
        ctx.response = prepare(ctx.hard, ctx.soft, ctx.contexts, ctx.checks)


def prepare(hard, soft, contexts, checks=()) -> Response:
    pieces = [c for c in checks if c] + list(soft)
    context = feedback.cap("\n\n".join(contexts), contexts) if contexts else ""
    if hard is not None:
        kind, text, _policy = hard
        if kind == "block":
            return Response(BLOCK, text=feedback.cap(feedback.block_text(text, soft), pieces + [text]),
                            context=context)  # fmt: skip
        extra = feedback.cap(feedback.soft_text(soft), pieces) if soft else ""
        return Response(APPROVE if kind == "approve" else ASK, reason=text, soft_text=extra, context=context)
    if soft:
        return Response(SOFT, text=feedback.cap(feedback.soft_text(soft), pieces), context=context)
    return Response(NONE, context=context)
