"""What Cursor honours, event by event, as documented (the README's table is generated from
CAPABILITIES; one canonical event may be several Cursor events: AGENT_EVENT_CAPABILITIES says
where they differ)."""

from __future__ import annotations

from cupcake.agents.common import CAP, os_layer, rewrite, row, supported

DOC = "documented only (not verified in the real client)"

EVENTS = {
    "preToolUse": "PreToolUse",
    "beforeShellExecution": "PreToolUse",
    "beforeMCPExecution": "PreToolUse",
    "beforeReadFile": "PreToolUse",
    "postToolUse": "PostToolUse",
    "afterShellExecution": "PostToolUse",
    "afterMCPExecution": "PostToolUse",
    "afterFileEdit": "PostToolUse",
    "postToolUseFailure": "PostToolUseFailure",
    "beforeSubmitPrompt": "UserPromptSubmit",
    "stop": "Stop",
    "subagentStart": "SubagentStart",
    "subagentStop": "SubagentStop",
    "sessionStart": "SessionStart",
    "sessionEnd": "SessionEnd",
    "preCompact": "PreCompact",
}
# Canonical -> the Cursor event a hook is installed on (preToolUse sees every tool).
AGENT_NAMES = {
    "PreToolUse": "preToolUse",
    "PostToolUse": "postToolUse",
    "PostToolUseFailure": "postToolUseFailure",
    "UserPromptSubmit": "beforeSubmitPrompt",
    "Stop": "stop",
    "SubagentStart": "subagentStart",
    "SubagentStop": "subagentStop",
    "SessionStart": "sessionStart",
    "SessionEnd": "sessionEnd",
    "PreCompact": "preCompact",
}

TOOLS = {"Shell": "Bash", "Read": "Read", "Write": "Write", "Grep": "Grep", "Task": "Agent"}
FIELDS = {"Read": {"path": "file_path"}, "Write": {"path": "file_path", "contents": "content"}}
SHELL_TOOLS = frozenset({"Shell"})
FILE_WRITE_TOOLS = frozenset({"Write", "Delete"})
PROJECT_DIR_ENV = ("CURSOR_PROJECT_DIR",)  # after the payload's workspace_roots[0]
ANSWER_CAP = CAP
# The answer field the user sees and the model never does: where what only the person may know goes
# (an approval code, cupcake.approvals). None: the agent has no such channel, and nothing private is sent.
USER_CHANNEL = None
USER_CHANNEL_SEEN = (
    "user_message is documented as the user's, but Cursor is not verified in a real client: no code is sent"
)

_PRE = ("preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile")
_POST = ("postToolUse", "afterShellExecution", "afterMCPExecution", "afterFileEdit")
CAPABILITIES = {
    "PreToolUse": row(
        _PRE,
        True,
        False,
        True,
        False,
        "agent_message: <reason>",
        DOC,
        "ask is honoured on beforeShellExecution and beforeMCPExecution only; beforeReadFile takes no agent_message",
    ),
    "PostToolUse": row(
        _POST,
        False,
        False,
        False,
        True,
        "additional_context: <reason>",
        DOC,
        "cannot block; on postToolUse the reason reaches the model as additional_context, "
        "the after* events take no answer",
    ),
    "PostToolUseFailure": row("postToolUseFailure", False, False, False, False, "", DOC),
    "UserPromptSubmit": row(
        "beforeSubmitPrompt", True, False, False, False, "", DOC, "continue false; the user sees user_message"
    ),
    "Stop": row(
        "stop",
        True,
        False,
        False,
        False,
        "followup_message: <reason>",
        DOC,
        "a block becomes an auto-submitted follow-up (capped by loop_limit)",
    ),
    "SubagentStop": row("subagentStop", True, False, False, False, "followup_message: <reason>", DOC),
    "SubagentStart": row("subagentStart", True, False, True, False, "", DOC, "ask is treated as deny"),
    "SessionStart": row("sessionStart", False, False, False, True, "", DOC, "cannot block"),
    "SessionEnd": row("sessionEnd", False, False, False, False, "", DOC),
    "PreCompact": row("preCompact", False, False, False, False, "", DOC, "user_message only"),
}
# Where one Cursor event differs from its canonical row.
AGENT_EVENT_CAPABILITIES = {
    "beforeShellExecution": {"ask": True},
    "beforeMCPExecution": {"ask": True},
    "postToolUse": {"context": True},
    "afterShellExecution": {"context": False},
    "afterMCPExecution": {"context": False},
    "afterFileEdit": {"context": False},
}


def action_supported(kind: str, event: str, agent_event: str | None = None) -> bool:
    """Whether Cursor can honour ``kind`` on canonical ``event`` (on ``agent_event`` if named)."""
    override = AGENT_EVENT_CAPABILITIES.get(agent_event) if agent_event else None
    if override and agent_event and kind in override and EVENTS.get(agent_event) == event:
        return override[kind]
    return supported(CAPABILITIES, kind, event)


# Cupcake's OS layer: each shell call Cupcake lets through is rewritten to run in Cupcake's jail.
REWRITE = rewrite(
    {"preToolUse"},
    {"Shell"},
    ask=False,
    allow=True,
    shell="user",
    verified=DOC,
    notes="updated_input on preToolUse as documented; beforeShellExecution cannot rewrite",
)

OS_LAYER = os_layer(
    ("jailed",),
    "`cupcake sync --agent cursor --sandbox`",
    "",
    DOC,
)
