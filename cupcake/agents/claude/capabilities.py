"""What Claude Code can honour: its events, which of them block, approve, ask or take context, its
answer cap, and where it keeps its files. The tables the policy compiler, ``validate`` and the README read."""

from __future__ import annotations

NAME = "claude"
DISPLAY_NAME = "Claude Code"

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


# Characters: Claude Code's cap on a reason or context (longer text is cut in the middle of the longest output).
ANSWER_CAP = 10_000

# The environment variable naming the project directory in the hook's environment.
PROJECT_DIR_ENV = "CLAUDE_PROJECT_DIR"

# The user's Claude Code directory (under HOME): settings, and Cupcake's user policy file beside them.
USER_DIR = ".claude"
USER_POLICY_FILE = USER_DIR + "/cupcake.toml"

# Built-in tool names (hook-protocols §6.1) and the MCP form, for matcher warnings.
TOOLS = (
    "Agent",
    "Task",
    "Bash",
    "BashOutput",
    "KillShell",
    "Edit",
    "MultiEdit",
    "Write",
    "Read",
    "Glob",
    "Grep",
    "LS",
    "NotebookEdit",
    "NotebookRead",
    "WebFetch",
    "WebSearch",
    "TodoWrite",
    "ExitPlanMode",
    "Skill",
    "SlashCommand",
    "AskUserQuestion",
)
MCP_TOOL_PREFIX = "mcp__"
