"""The canonical event: what every agent's hook payload becomes on the way in.

Claude Code's vocabulary is the canonical one (event names such as ``PreToolUse``, tool names such as
``Bash`` and ``Write``, ``tool_input`` fields such as ``command`` and ``file_path``). An adapter turns its
agent's payload into a canonical payload (a dict in Claude Code's shape, unknown fields kept) and this
class reads it once, so that nothing outside ``cupcake/agents/`` knows a payload's field names.
Anything of the wrong shape reads as absent: the payload comes from an agent that may be hostile.
"""

from __future__ import annotations


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


class Event:
    """One hook event, canonical. ``payload`` is the canonical dict (what ``field`` conditions and
    custom systems read); the other attributes are its typed facts."""

    __slots__ = (
        "name",  # the canonical event name ("PreToolUse", …)
        "agent",  # the adapter's name ("claude", …)
        "payload",  # the canonical payload (dict, unknown fields kept)
        "project_dir",  # the project directory the agent names (its environment), or None
        "tool",  # the tool's canonical name, or None
        "agent_tool",  # the agent's own name for the tool (when it differs from the canonical one), or None
        "tool_input",  # the tool's input (dict; {} when absent)
        "tool_response",  # what the tool returned (after-the-fact events), or None
        "session_id",  # str or None
        "cwd",  # the agent's working directory (str) or None
        "prompt",  # the user's prompt (UserPromptSubmit) or None
        "stop_active",  # True when a stop hook already made the agent continue (no loops)
        "end_reason",  # why a session ended (SessionEnd) or None
        "error",  # why the tool failed (PostToolUseFailure) or None
        "subagent_id",  # the subagent that made the call, or None
        "input_unreadable",  # True when the tool's input was sent but could not be read as an object
    )

    def __init__(self, name: str, payload: dict, agent: str = "claude", project_dir: str | None = None):
        self.name = name
        self.agent = agent
        self.payload = payload
        self.project_dir = project_dir
        self.tool = _text(payload.get("tool_name"))
        self.agent_tool = _text(payload.get("agent_tool"))
        tool_input = payload.get("tool_input")
        self.tool_input = tool_input if isinstance(tool_input, dict) else {}
        self.tool_response = payload.get("tool_response")
        self.session_id = _text(payload.get("session_id"))
        self.cwd = _text(payload.get("cwd"))
        self.prompt = _text(payload.get("prompt"))
        self.stop_active = payload.get("stop_hook_active") is True
        self.end_reason = _text(payload.get("reason"))
        self.error = _text(payload.get("error"))
        self.subagent_id = _text(payload.get("agent_id"))
        # an adapter marks arguments it could not parse (a JSON string that is not an object); a
        # tool_input of any other shape than an object is unreadable too
        self.input_unreadable = payload.get("tool_input_unreadable") is True or (
            tool_input is not None and not isinstance(tool_input, dict)
        )

    def __repr__(self) -> str:
        return f"Event({self.name!r}, agent={self.agent!r}, tool={self.tool!r})"
