"""Copilot CLI's payload in, Copilot CLI's answer out."""

from __future__ import annotations

from cupcake.agents.common import (
    cap,
    copy_key,
    event_names,
    join,
    json_bytes,
    note,
    object_from,
    require_object,
    rewritten_input,
    set_tool,
    settle,
    text_bytes,
    with_context,
)
from cupcake.agents.copilot.capabilities import AGENT_NAMES, ANSWER_CAP, CAPABILITIES, EVENTS, FIELDS, TOOLS
from cupcake.pipeline.response import APPROVE, ASK, BLOCK, ERROR, SOFT

BLOCKING = frozenset(e for e, line in CAPABILITIES.items() if line["block"])

# camelCase field -> canonical key (the agent's key stays too)
_KEYS = (("sessionId", "session_id"), ("transcriptPath", "transcript_path"), ("toolResult", "tool_response"))


def parse(raw, event_arg, env):
    """(canonical event, canonical payload, $COPILOT_PROJECT_DIR or None). Copilot's payload does
    not name its event: the hook command's ``--event`` does."""
    raw = require_object(raw)
    named = raw.get("hook_event_name", raw.get("hookEventName"))
    canonical, agent_event = event_names(event_arg, named, EVENTS, AGENT_NAMES)
    payload = dict(raw)
    payload["hook_event_name"] = canonical
    payload["agent_event"] = agent_event
    for src, dst in _KEYS:
        copy_key(payload, src, dst)
    if "toolArgs" in raw and "tool_input" not in raw:
        tool_input, ok = object_from(raw["toolArgs"])
        payload["tool_input"] = tool_input
        if not ok:
            payload["tool_input_unreadable"] = True  # toolArgs was neither an object nor JSON holding one
    tool = raw.get("toolName", raw.get("tool_name"))
    set_tool(payload, tool, TOOLS, FIELDS.get(tool) if isinstance(tool, str) else None)
    project = env.get("COPILOT_PROJECT_DIR") if env is not None else None
    return canonical, payload, project or None


def answer(event, payload, response, warnings=()) -> tuple[dict, str]:
    """(JSON answer, message for stderr): Copilot reads JSON only on preToolUse and the stops."""
    d = response.decision
    text = cap(response.text, limit=ANSWER_CAP) if response.text else ""
    out: dict = {}
    message = text if getattr(response, "from_error", False) else ""
    if d == ERROR:
        message = text
    elif event == "PreToolUse":
        context = response.context
        if d in (BLOCK, SOFT):
            out = {"permissionDecision": "deny", "permissionDecisionReason": text}
        elif d in (APPROVE, ASK):
            out = {"permissionDecision": "allow" if d == APPROVE else "ask"}
            if cap(response.reason, limit=ANSWER_CAP):
                out["permissionDecisionReason"] = cap(response.reason, limit=ANSWER_CAP)
            context = with_context(context, cap(response.soft_text, limit=ANSWER_CAP), ANSWER_CAP)
        if context:
            out["additionalContext"] = cap(context, limit=ANSWER_CAP)
    elif event in ("Stop", "SubagentStop"):
        if d == BLOCK or (d == SOFT and payload.get("stop_hook_active") is not True):
            out = {"decision": "block", "reason": text}
        elif d == SOFT:
            message = text
    elif d in (BLOCK, SOFT):
        message = text  # the event's output is ignored: say it where a person may read it
    if event == "PreToolUse" and d not in (BLOCK, SOFT) and getattr(response, "command", None) is not None:
        out["modifiedArgs"] = rewritten_input(payload.get("tool_input"), response.command)  # the OS layer
    return out, join(message, note(warnings))


def render(event, payload, response, warnings=()):
    """stdout, stderr, exit code for Copilot CLI (always exit 0: exit 2 loses the reason)."""
    out, message = answer(event, payload, settle(response, event, BLOCKING), warnings)
    return (json_bytes(out) if out else b""), text_bytes(cap(message, limit=ANSWER_CAP)), 0
