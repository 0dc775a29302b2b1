"""A harmless sample event in each agent's own words, and the decision read back from its answer:
what ``cupcake doctor`` sends through a configured hook command (cold path)."""

from __future__ import annotations

import json

SAMPLE_COMMAND = "echo cupcake doctor"
SESSION = "cupcake-doctor"


def sample_tool(agent: str) -> str:
    """The agent's shell tool: what ``sample_pre_tool`` asks to run ``echo cupcake doctor``."""
    from cupcake.agents import adapter

    mod = adapter(agent)
    return sorted(mod.SHELL_TOOLS)[0] if mod.SHELL_TOOLS else "Bash"


def sample_pre_tool(agent: str, root: str) -> tuple[str, dict]:
    """(the agent's before-tool event, a payload asking its shell tool to run ``echo cupcake doctor``)."""
    from cupcake.agents import adapter

    mod = adapter(agent)
    line = mod.CAPABILITIES.get("PreToolUse")
    event = line["agent_events"][0] if line else "PreToolUse"
    shell = sample_tool(agent)
    tool_input = {"command": SAMPLE_COMMAND}
    if agent == "copilot":
        return event, {"sessionId": SESSION, "timestamp": 0, "cwd": root, "toolName": shell, "toolArgs": tool_input}
    if agent == "cursor":
        return event, {
            "conversation_id": SESSION,
            "hook_event_name": event,
            "workspace_roots": [root],
            "cwd": root,
            "tool_name": shell,
            "tool_input": tool_input,
        }
    return event, {
        "session_id": SESSION,
        "cwd": root,
        "hook_event_name": event,
        "tool_name": shell,
        "tool_input": tool_input,
    }


def read_decision(stdout: str) -> tuple[str | None, str, str]:
    """(decision or None, reason, message) from any of these agents' answers (ValueError: not JSON)."""
    if not stdout.strip():
        return None, "", ""
    answer = json.loads(stdout)
    if not isinstance(answer, dict):
        raise ValueError("not a JSON object")
    specific = answer.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    decision = (
        specific.get("permissionDecision")
        or answer.get("permissionDecision")
        or answer.get("decision")
        or answer.get("permission")
    )
    reason = (
        specific.get("permissionDecisionReason")
        or answer.get("permissionDecisionReason")
        or answer.get("reason")
        or answer.get("agent_message")
        or ""
    )
    message = answer.get("systemMessage") or answer.get("user_message") or ""
    return (decision if isinstance(decision, str) else None), str(reason), str(message)


def sample_event(agent: str, root: str):
    """The canonical before-tool event of ``sample_pre_tool``: the agent's shell running ``echo cupcake doctor``."""
    from cupcake.agents.event import Event

    payload = {"tool_name": "Bash", "tool_input": {"command": SAMPLE_COMMAND}, "cwd": root}
    return Event("PreToolUse", payload, agent)
