"""500 · Pass 2: the built-in self-protection first, then the evaluator's gate, then the matched
policies in list order; the first hard action is final.

Self-protection (``[settings] self_protection``, on unless set to false) comes before every policy,
so no approve can pre-empt it, and it holds even when a policy file is broken: the agent may not
change Cupcake's own files (see ``cupcake.protection.hook``). When it blocks, the policies' own
block is still named: a rule the team turned on for this very command (``git reset --hard``, ``rm
-rf /``) says more than "this could change Cupcake's files", so the policy's text leads and
self-protection's follows in ``ctx.other_blocks``. No command check runs then: the call is blocked
already.

A ``run_command`` in block mode (the default) runs here: a failure (non-zero exit, timeout, an
executable that cannot start) is a final block with its feedback; success means that check is
satisfied and the scan goes on, so a passing test suite never shadows a later block.

After self-protection and before any policy, the evaluator's gate
(``[settings.eval_feedback] blocking = true``): while the newest eval reports major integration
issues, a PreToolUse of a file-writing tool, or a Bash command that would change a project file, is
blocked.

A custom system placed before the scan may already have decided: a policy's decision replaces it
only when stricter (``ctx.decide``), and once it is a block the policies are not scanned."""

from __future__ import annotations

from cupcake.evaluate.command_match import UNREAD, unread_block
from cupcake.evaluate.compiled import Action, Policy
from cupcake.evaluate.event_view import EventView
from cupcake.evaluate.patterns import of as run_patterns
from cupcake.pipeline.context import HardDecision
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.protection import hook as self_protection
from cupcake.systems._guards import can_evaluate, evaluating

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.context import Context

HARD = ("block", "approve", "ask")
# The tools the evaluator's gate stops: Write and Edit, and the other tools that write files.
GATED_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")


def gate_settings(ctx: Context) -> dict | None:
    """``[settings.eval_feedback]`` when its blocking gate applies to this event, else None."""
    evals = ctx.settings.get("eval_feedback")
    if evals is None or not evals["blocking"] or ctx.event != "PreToolUse" or ctx.incoming is None:
        return None
    return evals if ctx.incoming.tool in GATED_TOOLS or ctx.incoming.tool == "Bash" else None


class HardActionScan(BaseSystem):
    order = Stage.HARD_ACTION_SCAN

    def should_process(self, ctx: Context) -> bool:
        if self_protection.applies(ctx):
            return True
        if _blocked(ctx):  # a custom system before this one blocked: no policy could change that
            return False
        return can_evaluate(ctx) and (bool(ctx.matched) or gate_settings(ctx) is not None)

    def process(self, ctx: Context) -> None:
        guard = _self_protection(ctx) if self_protection.applies(ctx) else None
        if not can_evaluate(ctx):  # the policies could not be loaded or evaluated: only self-protection stands
            if guard:
                ctx.hard = HardDecision("block", guard, self_protection.POLICY_NAME)
            return
        if guard:
            _with_policy_block(ctx, guard)
            return
        compiled, event, _root = evaluating(ctx)
        evals = gate_settings(ctx)
        by = None
        if evals is not None and event.tool == "Bash":
            from cupcake.protection.bash import project_write

            by = project_write(ctx)  # a Bash call is gated only when it changes a project file
        if evals is not None and (by is not None or event.tool != "Bash"):
            from cupcake.evaluator_findings.gate import GATE_NAME, gate_reason

            reason = gate_reason(ctx, evals, by)
            if reason is not None:
                ctx.hard = HardDecision("block", reason, GATE_NAME)
                return
        if _blocked(ctx):
            return
        policies = compiled["policies"]
        for i in ctx.matched:
            policy = Policy(policies[i])
            action = policy.action
            if action.kind in HARD:
                if action.kind == "block" and _person_allowed(ctx, policy.name, action.text):
                    continue  # a person let this exact call through: the scan goes on
                ctx.decide(
                    _kind(ctx, action.kind, policy.name), _text(ctx, i, action), policy.name
                )  # stricter than a custom decision, or not
                break
            if action.kind == "check" and action.on_failure == "block":
                from cupcake.run_command.check import run_check  # only when a check matched

                ok, text = run_check(ctx, policy.name, action)
                if not ok and not _person_allowed(ctx, policy.name, text):
                    ctx.decide(_kind(ctx, "block", policy.name), text, policy.name)
                    break
        if "cupcake.approvals" in ctx.ext:  # a person's grant was met on the way: used, or not
            from cupcake.approvals.at_block import approve_used

            approve_used(ctx)


def _text(ctx: Context, i: int, action: Action) -> str:
    """The action's text; for a block whose rule held only because the Bash line could not be read to the
    end, what could not be read comes first (the rule's own danger may not be there at all)."""
    reason = ctx.ext.get(UNREAD, {}).get(i) if action.kind == "block" else None
    return action.text if reason is None else unread_block(reason, action.text)


def _person_allowed(ctx: Context, rule: str, text: str) -> bool:
    """A person's grant (``cupcake allow``) for this exact call and rule (read only when a policy blocks)."""
    from cupcake.approvals.at_block import use_grant

    return use_grant(ctx, rule, text)


def _kind(ctx: Context, kind: str, rule: str) -> str:
    """A block stays a block, unless ``[settings] approvals = "ask"`` makes it the agent's own question
    (only on an agent with no user-only channel for an approval code)."""
    if kind != "block" or "ask" not in (ctx.settings.get("approvals"), ctx.settings.get("managed_approvals")):
        return kind
    from cupcake.approvals.at_block import as_ask

    return "ask" if as_ask(ctx, rule) else kind


def _blocked(ctx: Context) -> bool:
    return ctx.hard is not None and ctx.hard.kind == "block"


def _self_protection(ctx: Context) -> str | None:
    """Self-protection's block text for this call, or None."""
    try:
        _policies, event, root = evaluating(ctx)  # self_protection.applies() held: policies were loaded
        return self_protection.violation(ctx, EventView(event, root, None, run_patterns(ctx)))
    except Exception as exc:  # a check that cannot be made safely is a block, and only its own failure
        return (
            "Cupcake self-protection could not check this call safely "
            f"({type(exc).__name__}), so it is blocked. A person can make this change."
        )


def _with_policy_block(ctx: Context, guard: str) -> None:
    """Self-protection blocks: the block of a custom system before the scan, or else of the first hard
    action in list order when it is a block, decides with its own text, and self-protection's follows.
    An approve or ask first in list order is pre-empted (self-protection comes before every policy)."""
    found = ctx.hard if _blocked(ctx) else None
    if found is None:
        policies = evaluating(ctx)[0]["policies"]
        for i in ctx.matched:
            policy = Policy(policies[i])
            action = policy.action
            if action.kind in HARD:
                if action.kind == "block":
                    found = HardDecision("block", _text(ctx, i, action), policy.name)
                break
    if found is None:
        ctx.hard = HardDecision("block", guard, self_protection.POLICY_NAME)
    else:
        ctx.hard = found
        ctx.other_blocks.append((self_protection.POLICY_NAME, guard))
