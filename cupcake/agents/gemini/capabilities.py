"""What Gemini CLI honours, event by event (the README's table is generated from CAPABILITIES)."""

from __future__ import annotations

from cupcake.agents.common import CAP, os_layer, rewrite, row, supported

REAL = "real client 0.61.0"
DOC = "documented only"

# The agent's event -> canonical. Model events have no canonical name: they pass through as they are.
EVENTS = {
    "BeforeTool": "PreToolUse",
    "AfterTool": "PostToolUse",
    "BeforeAgent": "UserPromptSubmit",
    "AfterAgent": "Stop",
    "SessionStart": "SessionStart",
    "SessionEnd": "SessionEnd",
    "PreCompress": "PreCompact",
    "Notification": "Notification",
    "BeforeModel": "BeforeModel",
    "AfterModel": "AfterModel",
    "BeforeToolSelection": "BeforeToolSelection",
}
AGENT_NAMES = {canonical: agent for agent, canonical in EVENTS.items()}

TOOLS = {
    "run_shell_command": "Bash",
    "write_file": "Write",
    "replace": "Edit",
    "read_file": "Read",
    "glob": "Glob",
    "grep_search": "Grep",
    "search_file_content": "Grep",
    "list_directory": "LS",
    "web_fetch": "WebFetch",
    "google_web_search": "WebSearch",
    "write_todos": "TodoWrite",
}
# Agent tool -> {agent's tool_input key: canonical key} (the agent's key stays too).
FIELDS = {
    "read_file": {"absolute_path": "file_path", "path": "file_path"},
    "write_file": {"path": "file_path"},
    "replace": {"path": "file_path"},
    "list_directory": {"dir_path": "path"},
}
SHELL_TOOLS = frozenset({"run_shell_command"})
FILE_WRITE_TOOLS = frozenset({"write_file", "replace"})
PROJECT_DIR_ENV = ("GEMINI_PROJECT_DIR",)
ANSWER_CAP = CAP
# The answer field the user sees and the model never does: where what only the person may know goes
# (an approval code, cupcake.approvals). None: the agent has no such channel, and nothing private is sent.
USER_CHANNEL = "systemMessage"
USER_CHANNEL_SEEN = "printed for the user ('Hook system message: ...'), never sent to the model (real client 0.61.0)"

CAPABILITIES = {
    "PreToolUse": row(
        "BeforeTool",
        True,
        True,
        True,
        False,
        "Tool execution blocked: <reason>",
        REAL,
        "deny checked live (JSON and exit 2), approve too (headless yolo, where every tool is approved "
        "anyway); ask documented in Gemini's code only",
    ),
    "PostToolUse": row(
        "AfterTool",
        True,
        False,
        False,
        True,
        "<reason> (replaces the tool's result)",
        DOC,
        "soft feedback and context are appended to the tool's result",
    ),
    "UserPromptSubmit": row("BeforeAgent", True, False, False, True, "the turn is blocked: <reason>", DOC),
    "Stop": row("AfterAgent", True, False, False, False, "retry prompt: <reason>", DOC),
    "SessionStart": row("SessionStart", False, False, False, True, "", DOC, "cannot block: the user is told"),
    "SessionEnd": row("SessionEnd", False, False, False, False, "", REAL),
    "PreCompact": row("PreCompress", False, False, False, False, "", DOC),
    "Notification": row("Notification", False, False, False, False, "", DOC),
    "BeforeModel": row("BeforeModel", False, False, False, False, "", REAL, "not evaluated by Cupcake's policies"),
    "AfterModel": row("AfterModel", False, False, False, False, "", DOC, "fires per streamed chunk"),
    "BeforeToolSelection": row("BeforeToolSelection", False, False, False, False, "", DOC),
}


def action_supported(kind: str, event: str) -> bool:
    """Whether Gemini CLI can honour ``kind`` (block, approve, ask, context, …) on canonical ``event``."""
    return supported(CAPABILITIES, kind, event)


# Cupcake's OS layer: each shell call Cupcake lets through is rewritten to run in Cupcake's jail.
REWRITE = rewrite(
    {"BeforeTool"},
    {"run_shell_command"},
    ask=False,
    allow=False,
    shell="bash",
    verified=REAL,
    notes="the model is told that a hook changed the tool's input",
)

OS_LAYER = os_layer(
    ("jailed",),
    "`cupcake sync --agent gemini --sandbox`",
    "",
    REAL,
)
