"""Answers in Claude Code's wire format, for the agents that copied it (Codex, Factory droid),
gated by what each of them honours: an action the agent cannot take is never written (Codex fails
the whole hook on an unsupported field), and what the user must still learn goes to systemMessage."""

from __future__ import annotations

from cupcake.agents.common import CAP, cap, join, note, rewritten_input, with_context
from cupcake.pipeline.response import APPROVE, ASK, BLOCK, ERROR, SOFT

POST_TOOL = ("PostToolUse", "PostToolUseFailure")
STOPS = ("Stop", "SubagentStop")


class Gates:
    """What one agent honours, by canonical event."""

    __slots__ = (
        "approve",
        "ask",
        "context",
        "soft_post_as_context",
        "ask_fallback",
        "limit",
        "user_channel",
        "rewrite_allow",
    )

    def __init__(
        self,
        approve,
        ask,
        context,
        soft_post_as_context=False,
        ask_fallback="",
        limit=CAP,
        user_channel=False,
        rewrite_allow=False,
    ):
        self.approve = frozenset(approve)
        self.ask = frozenset(ask)
        self.context = frozenset(context)
        self.soft_post_as_context = soft_post_as_context  # keep the tool's result, feedback beside it
        self.ask_fallback = ask_fallback  # template with {reason}: told to the user when ask is impossible
        self.limit = limit
        self.user_channel = user_channel  # systemMessage reaches the user and never the model (USER_CHANNEL)
        self.rewrite_allow = rewrite_allow  # a rewritten command is applied only with an explicit allow


def _specific(event: str, **fields) -> dict:
    out = {"hookEventName": event}
    out.update((k, v) for k, v in fields.items() if v)
    return out


def answer(event: str, payload, response, warnings, gates: Gates) -> dict:
    """The JSON object for ``response`` (empty: print nothing); ``response`` is already settled
    (a closed-mode error on a blocking event arrives as a block)."""
    limit = gates.limit
    d = response.decision
    text = cap(response.text, limit=limit) if response.text else ""
    context = response.context if event in gates.context else ""
    out: dict = {}
    message = text if getattr(response, "from_error", False) else ""
    jailed = getattr(response, "command", None) if event == "PreToolUse" and d not in (BLOCK, SOFT) else None
    if d == ERROR:
        message = text
        if jailed is not None:  # the OS layer: jailed all the same
            out["hookSpecificOutput"] = _jailed(event, payload, jailed, gates)
    elif event == "PreToolUse":
        fields = {}
        if d in (BLOCK, SOFT):
            fields = {"permissionDecision": "deny", "permissionDecisionReason": text}
        elif d in (APPROVE, ASK):
            kind = "allow" if d == APPROVE else "ask"
            if event in (gates.approve if d == APPROVE else gates.ask):
                fields = {"permissionDecision": kind, "permissionDecisionReason": cap(response.reason, limit=limit)}
            elif d == ASK and gates.ask_fallback:
                message = gates.ask_fallback.format(reason=cap(response.reason, limit=limit) or "(no reason given)")
            if event in gates.context:
                context = with_context(context, cap(response.soft_text, limit=limit), limit)
            else:
                message = join(message, cap(response.soft_text, limit=limit))
        if jailed is not None:
            fields.update(_jailed(event, payload, jailed, gates))
            fields.pop("hookEventName", None)
        if fields or context:
            out["hookSpecificOutput"] = _specific(event, **fields, additionalContext=cap(context, limit=limit))
    elif event == "PermissionRequest":
        if d == BLOCK:
            out["hookSpecificOutput"] = _specific(event, decision={"behavior": "deny", "message": text})
        elif d == APPROVE and event in gates.approve:
            out["hookSpecificOutput"] = _specific(event, decision={"behavior": "allow"})
    elif event in POST_TOOL:
        if d == BLOCK or (d == SOFT and not (gates.soft_post_as_context and event in gates.context)):
            out = {"decision": "block", "reason": text}
        elif d == SOFT:
            context = with_context(context, text, limit)
        if context:
            out["hookSpecificOutput"] = _specific(event, additionalContext=cap(context, limit=limit))
    elif event == "UserPromptSubmit":
        if d == BLOCK:
            out = {"decision": "block", "reason": text}
        elif d == SOFT:
            if event in gates.context:
                context = with_context(context, text, limit)
            else:
                message = text
        if context:
            out["hookSpecificOutput"] = _specific(event, additionalContext=cap(context, limit=limit))
    elif event in STOPS:
        if d == BLOCK or (d == SOFT and not _stop_hook_active(payload)):
            out = {"decision": "block", "reason": text}
        elif d == SOFT:
            message = text  # already continuing because of a stop hook: no loops
    elif event == "SessionStart":
        if d in (BLOCK, SOFT) and event in gates.context:
            context = with_context(context, text, limit)
        if context:
            out["hookSpecificOutput"] = _specific(event, additionalContext=cap(context, limit=limit))
        if d == BLOCK or (d == SOFT and event not in gates.context):
            message = text  # SessionStart cannot block: the user is told
    elif d in (BLOCK, SOFT):
        message = text
    message = join(message, getattr(response, "private", "") if gates.user_channel else "", note(warnings))
    if message:
        out["systemMessage"] = cap(message, limit=limit)
    return out


def _jailed(event: str, payload, command: str, gates: Gates) -> dict:
    """The rewrite of a shell call into Cupcake's jail: the whole input with the command replaced,
    and an explicit allow where the agent applies a rewrite only with one."""
    tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
    fields: dict = {"hookEventName": event}
    if gates.rewrite_allow:
        fields["permissionDecision"] = "allow"
    fields["updatedInput"] = rewritten_input(tool_input, command)
    return fields


def _stop_hook_active(payload) -> bool:
    return isinstance(payload, dict) and payload.get("stop_hook_active") is True
