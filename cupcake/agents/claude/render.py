"""Claude Code's hook protocol: what each event accepts, and how a Response is rendered.

Pure functions only; the CLI writes the bytes. DESIGN.md's event table is the contract:
JSON on stdout and exit code 0 for every decision, no output when there is nothing to say.
"""

from __future__ import annotations

from cupcake.pipeline.response import APPROVE, ASK, BLOCK, ERROR, SOFT
from cupcake.policy import answer_text as feedback
from cupcake.speedups import fastjson

EVENTS = (
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "Notification",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "Setup",
    "PreCompact",
    "PostCompact",
    "InstructionsLoaded",
    "MessageDisplay",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
)

# Events whose payload names a tool (a policy's matcher applies only to these).
TOOL_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "PermissionDenied", "PostToolUse", "PostToolUseFailure"})

# Events on which a blocked answer stops something (fail_mode = "closed" uses their block form).
BLOCKING_EVENTS = frozenset(
    {"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SubagentStop"}
)

# The cells of DESIGN.md's table marked "—": these actions cannot be honoured on these events.
APPROVE_EVENTS = frozenset({"PreToolUse", "PermissionRequest"})
ASK_EVENTS = frozenset({"PreToolUse", "PermissionRequest"})
CONTEXT_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart"})


def action_supported(kind: str, event: str) -> bool:
    """Whether Claude Code can honour an action ``kind`` ("approve", "ask", "context", …) on ``event``."""
    if kind == "approve":
        return event in APPROVE_EVENTS
    if kind == "ask":
        return event in ASK_EVENTS
    if kind == "context":
        return event in CONTEXT_EVENTS
    return True


def _join(*parts: str) -> str:
    return "\n\n".join(p for p in parts if p)


def _with_context(context: str, text: str) -> str:
    """Context and soft text on one answer: context first, and the two together within the client's cap."""
    return feedback.cap(_join(context, text), (context, text))


def _specific(event: str, **fields) -> dict:
    out = {"hookEventName": event}
    out.update((k, v) for k, v in fields.items() if v)
    return out


def answer(event: str, payload, response, warnings=()) -> dict:
    """The JSON object Claude Code gets for ``response`` (empty: print nothing)."""
    d = response.decision
    text = response.text
    context = response.context
    out = {}
    if d == ERROR:
        if response.fail_closed and event in BLOCKING_EVENTS:
            out = answer(event, payload, _Blocked(text))
        out["systemMessage"] = text
    elif event == "PreToolUse":
        if d in (BLOCK, SOFT):
            fields = {"permissionDecision": "deny", "permissionDecisionReason": text}
        elif d == APPROVE:
            fields = {"permissionDecision": "allow", "permissionDecisionReason": response.reason}
            context = _with_context(context, response.soft_text)
        elif d == ASK:
            fields = {"permissionDecision": "ask", "permissionDecisionReason": response.reason}
            context = _with_context(context, response.soft_text)
        else:
            fields = {}
        if fields or context:
            out["hookSpecificOutput"] = _specific(event, **fields, additionalContext=context)
    elif event == "PermissionRequest":
        if d == BLOCK:
            out["hookSpecificOutput"] = _specific(event, decision={"behavior": "deny", "message": text})
        elif d == APPROVE:
            out["hookSpecificOutput"] = _specific(event, decision={"behavior": "allow"})
    elif event in ("PostToolUse", "PostToolUseFailure"):
        if d in (BLOCK, SOFT):
            out = {"decision": "block", "reason": text}
        if context:
            out["hookSpecificOutput"] = _specific(event, additionalContext=context)
    elif event == "UserPromptSubmit":
        if d == BLOCK:
            out = {"decision": "block", "reason": text}
        elif d == SOFT:
            context = _with_context(context, text)
        if context:
            out["hookSpecificOutput"] = _specific(event, additionalContext=context)
    elif event in ("Stop", "SubagentStop"):
        if d == BLOCK or (d == SOFT and not _stop_hook_active(payload)):
            out = {"decision": "block", "reason": text}
        elif d == SOFT:
            out = {"systemMessage": text}  # already continuing because of a stop hook: no loops
    elif event == "SessionStart":
        if d in (BLOCK, SOFT):
            context = _with_context(context, text)
        if context:
            out["hookSpecificOutput"] = _specific(event, additionalContext=context)
        if d == BLOCK:
            out["systemMessage"] = text  # SessionStart cannot block: the user is told
    elif d in (BLOCK, SOFT):
        out = {"systemMessage": text}
    if warnings:
        note = "\n".join(warnings)
        out["systemMessage"] = _join(out.get("systemMessage", ""), note)
    return out


class _Blocked:
    """A block whose text is the run's error (fail_mode = "closed")."""

    __slots__ = ("text",)
    decision = BLOCK
    context = ""
    soft_text = ""
    reason = ""

    def __init__(self, text: str):
        self.text = text


def _stop_hook_active(payload) -> bool:
    return isinstance(payload, dict) and payload.get("stop_hook_active") is True


def render(event: str, payload, response, warnings=()) -> tuple[bytes, bytes, int]:
    """stdout, stderr and exit code for Claude Code."""
    out = answer(event, payload, response, warnings)
    if not out:
        return b"", b"", 0
    data = fastjson.dumps(out)
    return data.encode("utf-8", "replace") + b"\n", b"", 0
