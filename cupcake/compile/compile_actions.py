"""Compiling a policy's action into the plain tuple a warm run acts on (cold path)."""

from __future__ import annotations

from pydantic_core import ValidationError

from cupcake.agents import catalog
from cupcake.agents.catalog import action_supported
from cupcake.compile import schema
from cupcake.compile.messages import explain
from cupcake.compile.state_conditions import compile_update_state
from cupcake.problems import suggestion

# The action kinds the evaluation knows: soft messages, hard decisions, context, side effects.
ACTION_KIND = {
    "provide_feedback": "soft",
    "block_with_feedback": "block",
    "approve": "approve",
    "ask": "ask",
    "warn": "warn",
    "inject_context": "context",
}


def pydantic_message(err, known=()) -> str:
    return explain([err], known)[0][1]


def compile_action(action, event, report):
    if not isinstance(action, dict):
        if action is not None:
            report('`action` must be a table such as { type = "block_with_feedback", … }', "action")
        return None
    kind = action.get("type")
    if not isinstance(kind, str):
        found = "no `type`" if kind is None else f"`type` is {type(kind).__name__}"
        report(f'the action needs a type, such as type = "block_with_feedback" ({found})', ("action", "type"))
        return None
    if kind == "run_command":
        return compile_run_command(action, report)
    if kind == "update_state":
        return compile_update_state(action, report)
    table = schema.ACTION_TABLES.get(kind)
    if table is None:
        report(f'unknown action type "{kind}"{suggestion(kind, schema.ACTION_TYPES)}', ("action", "type"))
        return None
    try:
        table.validate(action)
    except ValidationError as exc:
        for loc, message in explain(exc.errors(), table.keys):
            report(f"action {kind}: " + message, ("action", str(loc[0])) if loc else "action")
        return None
    compiled = ACTION_KIND[kind]
    if isinstance(event, str) and event in catalog.events() and not action_supported(compiled, event):
        if compiled == "context":
            report(
                f'"{kind}" cannot be honoured on {event}: Claude Code passes no context to the model there'
                f" (it can on {context_events()})",
                ("action", "type"),
            )
        else:
            report(
                f'"{kind}" cannot be honoured on {event}: Claude Code has no such answer for that event'
                f"{_honoured_on(compiled)}",
                ("action", "type"),
            )
        return None
    if compiled == "context":
        from cupcake.compile.compile_context import compile_context

        return compile_context(action, report)
    text = {"soft": "message", "warn": "message", "block": "feedback_message"}.get(compiled, "reason")
    return (compiled, action.get(text) or "")


def context_events() -> str:
    """The events that carry context, in the order of the event list: "PreToolUse, …"."""
    return ", ".join(e for e in catalog.events() if e in catalog.context_events())


def _honoured_on(kind: str) -> str:
    """`` (it works on PreToolUse and PermissionRequest)``: where an action kind can be used."""
    known = catalog.events()
    events = [e for e in known if action_supported(kind, e)]
    if not events or len(events) == len(known):
        return ""
    return (
        f" (it works on {', '.join(events[:-1])} and {events[-1]})"
        if len(events) > 1
        else f" (it works on {events[0]})"
    )


def compile_run_command(action: dict, report):
    """("check", spec, on_failure, feedback template): a command whose failure blocks, becomes
    soft feedback, or is ignored (a side effect)."""
    from cupcake.run_command import check_command_template

    ok = True
    for key in action:
        if key not in schema.RUN_COMMAND_KEYS:
            report(
                f"action run_command: unknown key `{key}`{suggestion(key, schema.RUN_COMMAND_KEYS)}", ("action", key)
            )
            ok = False
    on_failure = action.get("on_failure", "block")
    if on_failure not in schema.ON_FAILURE:
        report(
            f'action run_command: `on_failure` must be "block", "feedback" or "ignore", got {on_failure!r}',
            ("action", "on_failure"),
        )
        ok = False
    for problem in check_command_template(action):
        report(f"action run_command: {problem}", "action")
        ok = False
    if not ok:
        return None
    spec = {k: v for k, v in action.items() if k not in ("type", "on_failure", "on_failure_feedback")}
    return ("check", spec, on_failure, action.get("on_failure_feedback"))
