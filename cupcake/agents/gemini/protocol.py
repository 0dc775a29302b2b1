"""Gemini CLI's payload in, Gemini CLI's answer out (JSON on stdout, exit 0)."""

from __future__ import annotations

from cupcake.agents.common import (
    cap,
    event_names,
    join,
    json_bytes,
    note,
    require_object,
    rewritten_input,
    set_tool,
    settle,
    with_context,
)
from cupcake.agents.gemini.capabilities import AGENT_NAMES, ANSWER_CAP, CAPABILITIES, EVENTS, FIELDS, TOOLS
from cupcake.pipeline.response import APPROVE, ASK, BLOCK, ERROR, SOFT

BLOCKING = frozenset(e for e, line in CAPABILITIES.items() if line["block"])


def parse(raw, event_arg, env):
    """(canonical event, canonical payload, $GEMINI_PROJECT_DIR or None)."""
    raw = require_object(raw)
    canonical, agent_event = event_names(event_arg, raw.get("hook_event_name"), EVENTS, AGENT_NAMES)
    payload = dict(raw)
    payload["hook_event_name"] = canonical
    payload["agent_event"] = agent_event
    tool = raw.get("tool_name")
    set_tool(payload, tool, TOOLS, FIELDS.get(tool) if isinstance(tool, str) else None)
    if isinstance(tool, str) and tool not in TOOLS and not tool.startswith("mcp__"):
        mcp = raw.get("mcp_context")
        if isinstance(mcp, dict) and isinstance(mcp.get("server_name"), str) and isinstance(mcp.get("tool_name"), str):
            payload["tool_name"] = f"mcp__{mcp['server_name']}__{mcp['tool_name']}"
    project = env.get("GEMINI_PROJECT_DIR") if env is not None else None
    return canonical, payload, project or None


def _context(agent_event: str, text: str) -> dict:
    return {"hookEventName": agent_event, "additionalContext": cap(text, limit=ANSWER_CAP)}


def answer(event, payload, response, warnings=()) -> dict:
    d = response.decision
    text = cap(response.text, limit=ANSWER_CAP) if response.text else ""
    line = CAPABILITIES.get(event)
    context = response.context if line and line["context"] else ""
    agent_event = payload.get("agent_event") if isinstance(payload, dict) else None
    agent_event = agent_event if isinstance(agent_event, str) else AGENT_NAMES.get(event, event)
    out: dict = {}
    message = text if getattr(response, "from_error", False) else ""
    jailed = getattr(response, "command", None) if event == "PreToolUse" and d not in (BLOCK, SOFT) else None
    if d == ERROR:
        message = text
    elif event == "PreToolUse":
        if d in (BLOCK, SOFT):
            out = {"decision": "deny", "reason": text}
        elif d in (APPROVE, ASK):
            out = {"decision": "allow" if d == APPROVE else "ask"}
            if cap(response.reason, limit=ANSWER_CAP):
                out["reason"] = cap(response.reason, limit=ANSWER_CAP)
            message = cap(
                response.soft_text, limit=ANSWER_CAP
            )  # BeforeTool takes no additionalContext: the user is told
    elif event in ("PostToolUse", "UserPromptSubmit"):
        if d == BLOCK:
            out = {"decision": "deny", "reason": text}
        elif d == SOFT:
            context = with_context(context, text, ANSWER_CAP)
    elif event == "Stop":
        if d == BLOCK or (d == SOFT and payload.get("stop_hook_active") is not True):
            out = {"decision": "deny", "reason": text}
        elif d == SOFT:
            message = text  # already retrying because of a hook: no loops
    elif event == "SessionStart":
        if d in (BLOCK, SOFT):
            context = with_context(context, text, ANSWER_CAP)
        if d == BLOCK:
            message = text  # SessionStart cannot block: the user is told
    elif d in (BLOCK, SOFT):
        message = text
    if context:
        out["hookSpecificOutput"] = _context(agent_event, context)
    if jailed is not None:  # the OS layer: the whole input, the command jailed (Gemini replaces, not merges)
        tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
        out["hookSpecificOutput"] = {"hookEventName": agent_event, "tool_input": rewritten_input(tool_input, jailed)}
    message = join(message, getattr(response, "private", ""), note(warnings))  # USER_CHANNEL
    if message:
        out["systemMessage"] = cap(message, limit=ANSWER_CAP)
    return out


def render(event, payload, response, warnings=()):
    """stdout, stderr, exit code for Gemini CLI."""
    out = answer(event, payload, settle(response, event, BLOCKING), warnings)
    return (json_bytes(out), b"", 0) if out else (b"", b"", 0)
