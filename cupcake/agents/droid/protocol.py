"""Factory droid's payload in (snake_case as observed; camelCase as one integration reported), and
Claude Code's answer out."""

from __future__ import annotations

from cupcake.agents import claude_style
from cupcake.agents.common import copy_key, event_names, json_bytes, patch_fields, require_object, set_tool, settle
from cupcake.agents.droid.capabilities import ANSWER_CAP, CAPABILITIES, EVENTS, FIELDS, REWRITE, TOOLS, USER_CHANNEL

BLOCKING = frozenset(e for e, line in CAPABILITIES.items() if line["block"])
GATES = claude_style.Gates(
    approve={"PreToolUse"},
    ask={"PreToolUse"},
    context={e for e, line in CAPABILITIES.items() if line["context"]},
    limit=ANSWER_CAP,
    user_channel=USER_CHANNEL is not None,
    rewrite_allow=REWRITE["allow"],
)
_KEYS = (
    ("hookEventName", "hook_event_name"),
    ("sessionId", "session_id"),
    ("transcriptPath", "transcript_path"),
    ("permissionMode", "permission_mode"),
    ("toolName", "tool_name"),
    ("toolInput", "tool_input"),
    ("toolResponse", "tool_response"),
)


def parse(raw, event_arg, env):
    """(canonical event, canonical payload, $FACTORY_PROJECT_DIR / $DROID_PROJECT_DIR or None)."""
    raw = require_object(raw)
    payload = dict(raw)
    for src, dst in _KEYS:
        copy_key(payload, src, dst)
    canonical, agent_event = event_names(event_arg, payload.get("hook_event_name"), EVENTS, EVENTS)
    payload["hook_event_name"] = canonical
    payload["agent_event"] = agent_event
    tool = payload.get("tool_name")
    set_tool(payload, tool, TOOLS, FIELDS.get(tool) if isinstance(tool, str) else None)
    if tool == "ApplyPatch" and isinstance(payload.get("tool_input"), dict):
        tool_input = payload["tool_input"] = dict(payload["tool_input"])
        patch = next((v for k in ("patch", "input", "command") if isinstance(v := tool_input.get(k), str)), None)
        if patch is not None:
            tool_input.update(patch_fields(patch))  # the patch is what runs: a field beside it hides nothing
    project = None
    if env is not None:
        project = env.get("FACTORY_PROJECT_DIR") or env.get("DROID_PROJECT_DIR")
    return canonical, payload, project or None


def render(event, payload, response, warnings=()):
    """stdout, stderr, exit code for droid: Claude Code's JSON, exit 0."""
    out = claude_style.answer(event, payload, settle(response, event, BLOCKING), warnings, GATES)
    return (json_bytes(out), b"", 0) if out else (b"", b"", 0)
