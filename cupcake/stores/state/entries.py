"""The lines of the session log: a tool use (PostToolUse, PostToolUseFailure) or a custom event
(``update_state``). A tool use keeps a compact summary of its input: the fields state conditions
and people ask about, secrets masked, long values cut, and never a file's contents."""

from __future__ import annotations

from cupcake.project import shown_path
from cupcake.stores.audit.mask import mask_cut
from cupcake.stores.state.timestamps import iso_timestamp

# What a tool use's ``input`` keeps (Claude Code's own field names); contents are never kept.
RECORDED_INPUT = ("command", "file_path", "notebook_path", "path", "pattern", "url", "query", "subagent_type", "skill")
PATH_KEYS = ("file_path", "notebook_path", "path")
MAX_VALUE = 4096  # characters of one recorded value
MAX_ERROR = 300


def tool_entry(event, root: str, success: bool, now: float) -> dict:
    """``{timestamp, tool, success, input, path?}`` for the canonical ``event``: ``path`` is the file path
    as conditions see it."""
    tool_input = event.tool_input
    summary = {}
    for key in RECORDED_INPUT:
        value = tool_input.get(key)
        if isinstance(value, str) and "\0" not in value:
            summary[key] = value if key in PATH_KEYS else mask_cut(value, MAX_VALUE)
    entry = {
        "timestamp": iso_timestamp(now),
        "tool": event.tool or "",
        "success": success,
        "input": summary,
    }
    for key in PATH_KEYS:
        value = summary.get(key)
        if value:
            entry["path"] = shown_path(value, root, event.cwd)
            break
    if not success and event.error:
        entry["error"] = mask_cut(event.error, MAX_ERROR)
    if event.subagent_id:
        entry["agent_id"] = event.subagent_id[:200]
    return entry


def event_entry(event: str, data, policy: str, now: float) -> dict:
    """A custom event recorded by ``update_state``."""
    entry = {"timestamp": iso_timestamp(now), "event": event}
    if data:
        entry["data"] = data
    entry["policy"] = policy
    return entry
