"""Codex's payload in, Codex's answer out."""

from __future__ import annotations

from cupcake.agents import claude_style
from cupcake.agents.codex.capabilities import ANSWER_CAP, CAPABILITIES, EVENTS, REWRITE, TOOLS, USER_CHANNEL
from cupcake.agents.common import event_names, json_bytes, patch_fields, require_object, set_tool, settle

BLOCKING = frozenset(e for e, line in CAPABILITIES.items() if line["block"])

GATES = claude_style.Gates(
    approve={"PermissionRequest"},
    ask=(),
    context={e for e, line in CAPABILITIES.items() if line["context"]},
    soft_post_as_context=True,
    ask_fallback="Cupcake: a policy asks for your confirmation here, which Codex hooks cannot request; "
    "Codex's own approval settings decide. {reason}",
    limit=ANSWER_CAP,
    user_channel=USER_CHANNEL is not None,
    rewrite_allow=REWRITE["allow"],
)


def parse(raw, event_arg, env):
    """(canonical event, canonical payload, project dir: always None, the caller uses cwd)."""
    raw = require_object(raw)
    canonical, agent_event = event_names(event_arg, raw.get("hook_event_name"), EVENTS, EVENTS)
    payload = dict(raw)
    payload["hook_event_name"] = canonical
    payload["agent_event"] = agent_event
    tool = raw.get("tool_name")
    set_tool(payload, tool, TOOLS)
    if tool == "apply_patch" and isinstance(payload.get("tool_input"), dict):
        tool_input = payload["tool_input"] = dict(payload["tool_input"])
        patch = tool_input.get("command")
        if isinstance(patch, str):
            fields = patch_fields(patch)
            tool_input.update(fields)  # the patch is what runs: a field sent beside it never hides a file
            if "content" in fields:
                payload["tool_name"] = "Write"  # a patch that only adds files
    return canonical, payload, None


def render(event, payload, response, warnings=()):
    """stdout, stderr, exit code: Claude Code's JSON without the fields Codex refuses; exit 0."""
    out = claude_style.answer(event, payload, settle(response, event, BLOCKING), warnings, GATES)
    return (json_bytes(out), b"", 0) if out else (b"", b"", 0)
