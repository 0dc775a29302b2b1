"""What Claude Code can honour: its events, which of them block, approve, ask or take context, its
answer cap, and where it keeps its files. The tables the policy compiler, ``validate`` and the README read."""

from __future__ import annotations

from cupcake.agents import row, supported
from cupcake.agents.common import os_layer, rewrite

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


# Characters: Claude Code's cap on a reason or context (longer text is cut in the middle of the longest output).
ANSWER_CAP = 10_000
# The answer field the user sees and the model never does: where what only the person may know goes
# (an approval code, cupcake.approvals). None: the agent has no such channel, and nothing private is sent.
USER_CHANNEL = "systemMessage"
USER_CHANNEL_SEEN = "shown to the user, never sent to the model (real client 2.1.328); also kept in the session transcript under ~/.claude/projects/"

# The environment variables naming the project directory in the hook's environment.
PROJECT_DIR_ENV = ("CLAUDE_PROJECT_DIR",)

# The user's Claude Code directory (under HOME): its user settings and memory.
USER_DIR = ".claude"

# Claude Code's memory files, where a team writes its rules (``cupcake init`` translates them): in a
# directory, and in the user's Claude Code directory.
MEMORY_NAMES = ("CLAUDE.md", USER_DIR + "/CLAUDE.md")
USER_MEMORY = USER_DIR + "/CLAUDE.md"

# Claude Code's tool names (its tools reference), with the renamed and legacy ones it may still send;
# `validate` warns for a matcher none of them (nor an MCP tool) can match.
TOOL_NAMES = (
    "Agent",
    "Artifact",
    "AskUserQuestion",
    "Bash",
    "CronCreate",
    "CronDelete",
    "CronList",
    "Edit",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "LSP",
    "ListAgents",
    "ListMcpResourcesTool",
    "Monitor",
    "MultiEdit",  # legacy
    "NotebookEdit",
    "PowerShell",
    "PushNotification",
    "Read",
    "ReadMcpResourceTool",
    "RemoteTrigger",
    "ReportFindings",
    "ScheduleWakeup",
    "SendMessage",
    "SendUserFile",
    "ShareOnboardingGuide",
    "Skill",
    "Task",  # the name of Agent before Claude Code 2.1.63
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TodoWrite",
    "ToolSearch",
    "WaitForMcpServers",
    "WebFetch",
    "WebSearch",
    "Workflow",
    "Write",
)

# Tool names are canonical: each maps to itself. Shell and file-writing tools, for self-protection.
TOOLS = {tool: tool for tool in TOOL_NAMES}
SHELL_TOOLS = frozenset({"Bash"})
FILE_WRITE_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})

_REAL = "real client 2.1.328"
_DOC = "documented only"
_SEEN = {
    "PreToolUse": "PreToolUse:Bash hook error: <reason>",
    "PostToolUse": 'PostToolUse:Bash hook blocking error from command: "<hook command>": <reason>',
    "UserPromptSubmit": "the prompt is not sent; the user sees <reason>",
    "Stop": "the model continues, with <reason> as its next instruction",
    "SubagentStop": "the subagent continues, with <reason> as its next instruction",
    "PermissionRequest": "<reason> (the permission is denied)",
    "PostToolUseFailure": "<reason> (after the failed tool)",
}
_OBSERVED = frozenset({"PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop", "PermissionRequest"})

# DESIGN.md's table of Claude Code's answers, event by event (the README's capability table reads this).
CAPABILITIES = {
    event: row(
        event,
        event in BLOCKING_EVENTS,
        event in ASK_EVENTS,
        event in APPROVE_EVENTS,
        event in CONTEXT_EVENTS,
        _SEEN.get(event, ""),
        _REAL if event in _OBSERVED else _DOC,
    )
    for event in EVENTS
}


def action_supported(kind: str, event: str) -> bool:
    """Whether Claude Code can honour ``kind`` (block, approve, ask, context; anything else: yes) on ``event``."""
    return supported(CAPABILITIES, kind, event)


# Cupcake's OS layer: Claude Code's own sandbox does the job (`cupcake sync --sandbox`); Cupcake's jail is
# there for who does not run it (`cupcake sync --jail`). A rewrite is applied with any decision; with none
# it goes through Claude Code's own permission check (on the rewritten command), with ask it is asked.
REWRITE = rewrite(
    {"PreToolUse"},
    {"Bash"},
    ask=True,
    allow=False,
    shell="user",
    verified="real client 2.1.328",
    notes="Claude Code checks its own permission rules against the rewritten command: `Bash(npm test:*)` "
    "rules no longer match a jailed command; its own sandbox (`cupcake sync --sandbox`) keeps them",
)

OS_LAYER = os_layer(
    ("sandboxed", "jailed"),
    "`cupcake sync --sandbox` (its own sandbox; needs bubblewrap and socat), or `cupcake sync --jail` (Cupcake's jail)",
    "the jail: Claude Code's permission rules see the jailed command",
    "real client 2.1.328",
)
