"""Cursor's payload in, Cursor's answer out (JSON on stdout, exit 0)."""

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
from cupcake.agents.cursor.capabilities import (
    AGENT_NAMES,
    ANSWER_CAP,
    CAPABILITIES,
    EVENTS,
    FIELDS,
    TOOLS,
    action_supported,
)
from cupcake.pipeline.response import APPROVE, ASK, BLOCK, ERROR, SOFT

BLOCKING = frozenset(e for e, line in CAPABILITIES.items() if line["block"])
# Cursor events whose answer has a user_message / an agent_message.
USER_MESSAGE = frozenset(
    {
        "preToolUse",
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
        "beforeSubmitPrompt",
        "subagentStart",
        "preCompact",
    }
)
AGENT_MESSAGE = frozenset({"preToolUse", "beforeShellExecution", "beforeMCPExecution"})


MCP_EVENTS = frozenset({"beforeMCPExecution", "afterMCPExecution"})
MCP_PREFIX = "MCP:"  # preToolUse names an MCP tool "MCP:<tool>"
MCP_SERVER = "cursor"  # Cursor names no MCP server: its MCP tools are mcp__cursor__<tool>


def mcp_name(tool: str) -> str:
    """The canonical name of a Cursor MCP tool (``write_file``, ``MCP:write_file``): mcp__cursor__write_file."""
    if tool.startswith("mcp__"):
        return tool
    return f"mcp__{MCP_SERVER}__{tool.removeprefix(MCP_PREFIX)}"


def _first_root(raw: dict):
    roots = raw.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str) and roots[0]:
        return roots[0]
    return None


def _edits(edits) -> dict:
    olds, news = [], []
    if isinstance(edits, list):
        for edit in edits:
            if isinstance(edit, dict):
                if isinstance(edit.get("old_string"), str):
                    olds.append(edit["old_string"])
                if isinstance(edit.get("new_string"), str):
                    news.append(edit["new_string"])
    return {"old_string": "\n".join(olds), "new_string": "\n".join(news)}


def parse(raw, event_arg, env):
    """(canonical event, canonical payload, workspace_roots[0] or $CURSOR_PROJECT_DIR or None)."""
    raw = require_object(raw)
    canonical, agent_event = event_names(event_arg, raw.get("hook_event_name"), EVENTS, AGENT_NAMES)
    payload = dict(raw)
    payload["hook_event_name"] = canonical
    payload["agent_event"] = agent_event
    root = _first_root(raw)
    copy_key(payload, "conversation_id", "session_id")
    if "cwd" not in payload and root:
        payload["cwd"] = root
    if agent_event in ("beforeShellExecution", "afterShellExecution"):
        payload.setdefault("tool_name", "Shell")
        tool_input = {"command": raw.get("command")} if "command" in raw else {}
        if isinstance(raw.get("cwd"), str):
            tool_input["cwd"] = raw["cwd"]
        payload.setdefault("tool_input", tool_input)
        if agent_event == "afterShellExecution" and "output" in raw:
            payload.setdefault("tool_response", raw["output"])
    elif agent_event in ("beforeMCPExecution", "afterMCPExecution"):
        tool_input, ok = object_from(raw.get("tool_input"))
        payload["tool_input"] = tool_input
        if not ok:
            payload["tool_input_unreadable"] = True
        if "result_json" in raw:
            payload.setdefault("tool_response", raw["result_json"])
    elif agent_event == "beforeReadFile":
        payload.setdefault("tool_name", "Read")
        payload.setdefault("tool_input", {"file_path": raw.get("file_path")})
    elif agent_event == "afterFileEdit":
        payload.setdefault("tool_name", "Write")
        tool_input = {"file_path": raw.get("file_path"), "edits": raw.get("edits")}
        tool_input.update(_edits(raw.get("edits")))
        payload.setdefault("tool_input", tool_input)
    elif canonical in ("Stop", "SubagentStop") and "stop_hook_active" not in raw:
        count = raw.get("loop_count")
        payload["stop_hook_active"] = isinstance(count, int) and not isinstance(count, bool) and count > 0
    tool = payload.get("tool_name")
    set_tool(payload, tool, TOOLS, FIELDS.get(tool) if isinstance(tool, str) else None)
    if isinstance(tool, str) and (agent_event in MCP_EVENTS or tool.startswith(MCP_PREFIX)):
        payload["tool_name"] = mcp_name(tool)  # whatever it is called, an MCP event's tool is an MCP tool
    if agent_event == "afterFileEdit":
        payload["tool_name"] = "Edit"  # Cursor's Write covers edits; this event carries old/new strings
    project = root or (env.get("CURSOR_PROJECT_DIR") if env is not None else None)
    return canonical, payload, project or None


def answer(event, payload, response, warnings=()) -> tuple[dict, str]:
    """(JSON answer, message for stderr where the event has no user_message)."""
    agent_event = payload.get("agent_event") if isinstance(payload, dict) else None
    agent_event = agent_event if isinstance(agent_event, str) else AGENT_NAMES.get(event, event)
    d = response.decision
    text = cap(response.text, limit=ANSWER_CAP) if response.text else ""
    context = response.context if action_supported("context", event, agent_event) else ""
    out: dict = {}
    message = text if getattr(response, "from_error", False) else ""
    if d == ERROR:
        message = text
    elif event in ("PreToolUse", "SubagentStart"):
        if d in (BLOCK, SOFT):
            out = {"permission": "deny", "user_message": text}
            if agent_event in AGENT_MESSAGE:
                out["agent_message"] = text
        elif d == APPROVE:
            out = {"permission": "allow"}
        elif d == ASK:
            if action_supported("ask", event, agent_event):
                out = {"permission": "ask"}
            message = cap(response.reason, limit=ANSWER_CAP)  # shown in the prompt, or told when Cursor cannot ask here
        if d in (APPROVE, ASK) and cap(response.soft_text, limit=ANSWER_CAP):
            if agent_event in AGENT_MESSAGE:
                out["agent_message"] = cap(response.soft_text, limit=ANSWER_CAP)
            else:
                message = join(message, cap(response.soft_text, limit=ANSWER_CAP))
    elif event == "PostToolUse":
        if d in (BLOCK, SOFT):
            if action_supported("context", event, agent_event):
                context = with_context(context, text, ANSWER_CAP)
            else:
                message = text
    elif event == "UserPromptSubmit":
        if d == BLOCK:
            out = {"continue": False}
        if d in (BLOCK, SOFT):
            message = text
    elif event in ("Stop", "SubagentStop"):
        if d == BLOCK or (d == SOFT and payload.get("stop_hook_active") is not True):
            out = {"followup_message": text}
        elif d == SOFT:
            message = text  # already following up because of a hook: no loops
    elif event == "SessionStart":
        if d in (BLOCK, SOFT):
            context = with_context(context, text, ANSWER_CAP)
        if d == BLOCK:
            message = text
    elif d in (BLOCK, SOFT):
        message = text
    if context:
        out["additional_context"] = cap(context, limit=ANSWER_CAP)
    if event == "PreToolUse" and d not in (BLOCK, SOFT) and getattr(response, "command", None) is not None:
        out["permission"] = "allow"  # the OS layer: documented as applied with an allow (not verified)
        out["updated_input"] = rewritten_input(payload.get("tool_input"), response.command)
    message = join(message, note(warnings))
    if message and agent_event in USER_MESSAGE:
        shown = out.get("user_message", "")
        out["user_message"] = cap(shown if message == shown else join(shown, message), limit=ANSWER_CAP)
        message = ""
    return out, message


def render(event, payload, response, warnings=()):
    """stdout, stderr, exit code for Cursor (exit 0: the JSON says everything)."""
    out, message = answer(event, payload, settle(response, event, BLOCKING), warnings)
    return (json_bytes(out) if out else b""), text_bytes(cap(message, limit=ANSWER_CAP)), 0
