"""Claude Code's answers: how a neutral Response is rendered for each event.

Pure functions only; the CLI writes the bytes. DESIGN.md's event table is the contract:
JSON on stdout and exit code 0 for every decision, no output when there is nothing to say.
"""

from __future__ import annotations

from cupcake import speedups
from cupcake.agents.claude.capabilities import ANSWER_CAP, BLOCKING_EVENTS
from cupcake.agents.common import rewritten_input
from cupcake.pipeline import answer_text as feedback
from cupcake.pipeline.response import APPROVE, ASK, BLOCK, ERROR, SOFT


def _join(*parts: str) -> str:
    return "\n\n".join(p for p in parts if p)


def _with_context(context: str, text: str) -> str:
    """Context and soft text on one answer: context first, and the two together within the client's cap."""
    return feedback.cap(_join(context, text), (context, text), ANSWER_CAP)


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
        elif response.command is not None and event == "PreToolUse":  # the OS layer: jailed all the same
            out["hookSpecificOutput"] = _specific(event, updatedInput=_jailed_input(payload, response.command))
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
        if response.command is not None and d not in (BLOCK, SOFT):  # the OS layer: the command, jailed
            fields["updatedInput"] = _jailed_input(payload, response.command)
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
    private = getattr(response, "private", "")
    if warnings or private:
        # systemMessage is shown to the user and never reaches the model (seen in 2.1.328): the channel
        # for what only the person may know (USER_CHANNEL).
        note = "\n".join(warnings)
        out["systemMessage"] = _join(out.get("systemMessage", ""), private, note)
    return out


def _jailed_input(payload, command: str) -> dict:
    return rewritten_input(payload.get("tool_input") if isinstance(payload, dict) else None, command)


class _Blocked:
    """A block whose text is the run's error (fail_mode = "closed")."""

    __slots__ = ("text",)
    decision = BLOCK
    context = ""
    soft_text = ""
    reason = ""
    command = None

    def __init__(self, text: str):
        self.text = text


def _stop_hook_active(payload) -> bool:
    return isinstance(payload, dict) and payload.get("stop_hook_active") is True


def render(event: str, payload, response, warnings=()) -> tuple[bytes, bytes, int]:
    """stdout, stderr and exit code for Claude Code."""
    out = answer(event, payload, _within_cap(response), warnings)
    if not out:
        return b"", b"", 0
    data = speedups.json_dumps(out)
    return data.encode("utf-8", "replace") + b"\n", b"", 0


def _within_cap(response):
    """``response`` with every text within the client's cap (prepared answers already are; this is for
    errors and custom systems' texts)."""
    texts = (response.text, response.soft_text, response.reason, response.context)
    if all(len(t) <= ANSWER_CAP for t in texts):
        return response
    from cupcake.pipeline.response import Response

    fit = [feedback.cap(t, (t,), ANSWER_CAP) for t in texts]
    capped = Response(response.decision, fit[0], fit[1], fit[2], fit[3], response.fail_closed, response.command)
    capped.private = response.private
    return capped
