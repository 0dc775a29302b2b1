"""What Copilot CLI honours, event by event (the README's table is generated from CAPABILITIES)."""

from __future__ import annotations

from cupcake.agents.common import CAP, os_layer, rewrite, row, supported

REAL = "real client 1.0.102"
DOC = "documented only"

EVENTS = {
    "sessionStart": "SessionStart",
    "sessionEnd": "SessionEnd",
    "userPromptSubmitted": "UserPromptSubmit",
    "preToolUse": "PreToolUse",
    "postToolUse": "PostToolUse",
    "postToolUseFailure": "PostToolUseFailure",
    "agentStop": "Stop",
    "subagentStop": "SubagentStop",
    "preCompact": "PreCompact",
    "permissionRequest": "PermissionRequest",
    "errorOccurred": "errorOccurred",
    "userPromptTransformed": "userPromptTransformed",
    "preMcpToolCall": "preMcpToolCall",
}
AGENT_NAMES = {canonical: agent for agent, canonical in EVENTS.items()}

TOOLS = {
    "bash": "Bash",
    "powershell": "Bash",
    "create": "Write",
    "edit": "Edit",
    "view": "Read",
    "grep": "Grep",
    "glob": "Glob",
    "web_fetch": "WebFetch",
    "task": "Agent",
}
FIELDS = {
    "create": {"path": "file_path", "file_text": "content"},
    "edit": {"path": "file_path", "old_str": "old_string", "new_str": "new_string"},
    "view": {"path": "file_path"},
}
SHELL_TOOLS = frozenset({"bash", "powershell"})
FILE_WRITE_TOOLS = frozenset({"create", "edit"})
PROJECT_DIR_ENV = ("COPILOT_PROJECT_DIR",)
ANSWER_CAP = CAP
# The answer field the user sees and the model never does: where what only the person may know goes
# (an approval code, cupcake.approvals). None: the agent has no such channel, and nothing private is sent.
USER_CHANNEL = None
USER_CHANNEL_SEEN = "none: Copilot CLI reads only permissionDecision and its reason, which the model is shown"

_OUT_IGNORED = "Copilot ignores this event's output: Cupcake's message goes to stderr"
CAPABILITIES = {
    "PreToolUse": row(
        "preToolUse",
        True,
        True,
        True,
        True,
        "Denied by preToolUse hook: <reason>",
        REAL,
        "deny checked live (exit 2 shows the model only the exit code, so JSON is used), approve and "
        "additionalContext too; ask known to the runtime, not verified",
    ),
    "PostToolUse": row("postToolUse", False, False, False, False, "", REAL, _OUT_IGNORED),
    "PostToolUseFailure": row("postToolUseFailure", False, False, False, False, "", DOC, _OUT_IGNORED),
    "UserPromptSubmit": row("userPromptSubmitted", False, False, False, False, "", REAL, _OUT_IGNORED),
    "Stop": row(
        "agentStop",
        True,
        False,
        False,
        False,
        "continuation: <reason>",
        DOC,
        "decision block reported by third parties, not verified",
    ),
    "SubagentStop": row(
        "subagentStop",
        True,
        False,
        False,
        False,
        "continuation: <reason>",
        DOC,
        "decision block reported by third parties, not verified",
    ),
    "SessionStart": row("sessionStart", False, False, False, False, "", REAL, _OUT_IGNORED),
    "SessionEnd": row("sessionEnd", False, False, False, False, "", REAL, _OUT_IGNORED),
    "PreCompact": row("preCompact", False, False, False, False, "", DOC, _OUT_IGNORED),
    "PermissionRequest": row("permissionRequest", False, False, False, False, "", DOC, "output shape unknown"),
    "errorOccurred": row("errorOccurred", False, False, False, False, "", DOC, _OUT_IGNORED),
}


def action_supported(kind: str, event: str) -> bool:
    """Whether Copilot CLI can honour ``kind`` (block, approve, ask, context, …) on canonical ``event``."""
    return supported(CAPABILITIES, kind, event)


# Cupcake's OS layer: each shell call Cupcake lets through is rewritten to run in Cupcake's jail.
REWRITE = rewrite(
    {"preToolUse"},
    {"bash"},
    ask=False,
    allow=False,
    shell="bash",
    verified=REAL,
    notes="",
)

OS_LAYER = os_layer(
    ("jailed",),
    "`cupcake sync --agent copilot --sandbox`",
    "Copilot CLI asks before a command names a path outside the project: run it with `--add-dir` for the two "
    "directories of Cupcake's a jailed command names (sync prints them)",
    REAL,
)
