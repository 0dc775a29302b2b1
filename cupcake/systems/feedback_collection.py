"""400 · Pass 1: evaluate each candidate policy's conditions once, and collect, in list order,
every soft message and every context of the policies that match. A ``warn`` lets the call go
ahead and is told twice: to the agent as context, to the person as a warning (``systemMessage``). A ``run_command`` with
``on_failure = "feedback"`` runs here: its failure is one more soft message, at its place.
An ``inject_context`` from a file or a command is read here too (a failure: a warning, no context).
Then, when ``[settings.eval_feedback]`` serves this event, the evaluator's findings follow the
policies' contexts."""

from __future__ import annotations

from cupcake.evaluate.command_match import UNREAD
from cupcake.evaluate.compiled import Policy
from cupcake.evaluate.conditions import all_hold, event_candidates
from cupcake.evaluate.event_view import EventView
from cupcake.evaluate.patterns import of as run_patterns
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.systems._guards import can_evaluate, evaluating

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.context import Context

# How a warning is introduced: the agent learns the call went ahead, the person what was let through.
WARN_FOR_AGENT = "Cupcake warning (the call goes ahead): "
WARN_FOR_PERSON = "Cupcake warning: "


class FeedbackCollection(BaseSystem):
    order = Stage.FEEDBACK_COLLECTION

    def should_process(self, ctx: Context) -> bool:
        return can_evaluate(ctx)

    def process(self, ctx: Context) -> None:
        compiled, event, root = evaluating(ctx)
        policies = compiled["policies"]
        patterns = run_patterns(ctx)
        view = EventView(event, root, ctx.state, patterns)
        for i in event_candidates(compiled, event, patterns):
            policy = Policy(policies[i])
            guesses = view.guesses
            if not all_hold(policy.conditions, view):
                continue
            ctx.matched.append(i)
            if view.guesses > guesses:  # it holds only because the line could not be read to the end
                ctx.ext.setdefault(UNREAD, {})[i] = view.script().incomplete
            action = policy.action
            if action.kind == "soft":
                ctx.soft.append(action.text)
            elif action.kind == "warn":
                ctx.contexts.append(WARN_FOR_AGENT + action.text)
                ctx.warnings.append(WARN_FOR_PERSON + action.text)
            elif action.kind == "context":
                if action.source == "text":
                    ctx.contexts.append(action.value)
                else:
                    from cupcake.inject_context.sources import context_text

                    text = context_text(ctx, policy.name, action)
                    if text:
                        ctx.contexts.append(text)
            elif action.kind == "check" and action.on_failure == "feedback":
                from cupcake.run_command.check import run_check  # only when a check matched

                ok, text = run_check(ctx, policy.name, action)
                if not ok:
                    ctx.soft.append(text)
        evals = ctx.settings.get("eval_feedback")
        if evals is not None and ctx.event in evals["events"]:
            from cupcake.evaluator_findings.inject import inject_eval_feedback

            inject_eval_feedback(ctx, evals)
