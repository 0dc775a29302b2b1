"""What Codex honours, event by event (the README's table is generated from CAPABILITIES)."""

from __future__ import annotations

from cupcake.agents.common import CAP, os_layer, rewrite, row, supported

REAL = "real client 0.169.0"
DOC = "documented only"

# The agent's events: Codex uses Claude Code's names.
EVENTS = {
    e: e
    for e in (
        "SessionStart",
        "SessionEnd",
        "SubagentStart",
        "SubagentStop",
        "PreToolUse",
        "PermissionRequest",
        "PostToolUse",
        "PreCompact",
        "PostCompact",
        "UserPromptSubmit",
        "Stop",
        "Interrupt",
    )
}

# Agent tool name -> canonical. Shell and unified exec arrive as "Bash"; file edits as apply_patch
# (the patch text in tool_input.command); MCP tools already as mcp__server__tool.
TOOLS = {"Bash": "Bash", "apply_patch": "Edit", "spawn_agent": "Agent"}
SHELL_TOOLS = frozenset({"Bash"})
FILE_WRITE_TOOLS = frozenset({"apply_patch"})
PROJECT_DIR_ENV = ()  # Codex sets none: the payload's cwd is the project
ANSWER_CAP = CAP
# The answer field the user sees and the model never does: where what only the person may know goes
# (an approval code, cupcake.approvals). None: the agent has no such channel, and nothing private is sent.
USER_CHANNEL = "systemMessage"
USER_CHANNEL_SEEN = (
    "never sent to the model (real client 0.169.0); the TUI shows it to the user (documented), `codex exec` does not"
)

_SEEN_PRE = "Command blocked by PreToolUse hook: <reason>. Command: <command>"
CAPABILITIES = {
    "PreToolUse": row(
        "PreToolUse",
        True,
        False,
        False,
        True,
        _SEEN_PRE,
        REAL,
        "allow and ask are rejected by Codex (the hook run fails): approve and ask are not sent; "
        "ask is told to the user as a systemMessage; block and additionalContext checked live",
    ),
    "PermissionRequest": row(
        "PermissionRequest",
        True,
        False,
        True,
        False,
        "<reason> (decision.message)",
        DOC,
        "fires only when Codex would ask the user (not with approval_policy = never)",
    ),
    "PostToolUse": row(
        "PostToolUse",
        True,
        False,
        False,
        True,
        "<reason> (replaces the tool's result)",
        DOC,
        "fires after a failed Bash command too; soft feedback goes in as additionalContext",
    ),
    "UserPromptSubmit": row("UserPromptSubmit", True, False, False, True, "prompt blocked: <reason>", DOC),
    "Stop": row("Stop", True, False, False, False, "continuation prompt: <reason>", DOC),
    "SubagentStop": row("SubagentStop", True, False, False, False, "continuation prompt: <reason>", DOC),
    "SessionStart": row("SessionStart", False, False, False, True, "", DOC, "cannot block: the user is told"),
    "SessionEnd": row("SessionEnd", False, False, False, False, "", REAL),
    "SubagentStart": row("SubagentStart", False, False, False, False, "", DOC),
    "PreCompact": row("PreCompact", False, False, False, False, "", DOC),
    "PostCompact": row("PostCompact", False, False, False, False, "", DOC),
    "Interrupt": row("Interrupt", False, False, False, False, "", DOC),
}


def action_supported(kind: str, event: str) -> bool:
    """Whether Codex can honour ``kind`` (block, approve, ask, context, …) on canonical ``event``."""
    return supported(CAPABILITIES, kind, event)


# Cupcake's OS layer: each shell call Cupcake lets through is rewritten to run in Cupcake's jail.
REWRITE = rewrite(
    {"PreToolUse"},
    {"Bash"},
    ask=False,
    allow=True,
    shell="user",
    verified=REAL,
    notes="Codex applies a rewrite only with an explicit allow, so Cupcake allows every command it jails; Codex's own workspace-write sandbox cannot hold a jail (sync turns it off and says so)",
)

OS_LAYER = os_layer(
    ("jailed",),
    "`cupcake sync --agent codex --sandbox` (add `--unshare-net` to keep the network off)",
    "Codex's own sandbox is turned off (it cannot hold the jail): its write limits and network isolation go",
    REAL,
)
