"""What Factory droid honours, event by event (the README's table is generated from CAPABILITIES)."""

from __future__ import annotations

from cupcake.agents.common import CAP, os_layer, rewrite, row, supported

REAL = "real client 0.225.2"
DOC = "documented only"

EVENTS = {
    e: e
    for e in (
        "PreToolUse",
        "PostToolUse",
        "Notification",
        "UserPromptSubmit",
        "Stop",
        "SubagentStop",
        "PreCompact",
        "SessionStart",
        "SessionEnd",
    )
}

TOOLS = {
    "Execute": "Bash",
    "Create": "Write",
    "Edit": "Edit",
    "MultiEdit": "MultiEdit",
    "ApplyPatch": "Edit",
    "Read": "Read",
    "LS": "LS",
    "Grep": "Grep",
    "Glob": "Glob",
    "FetchUrl": "WebFetch",
    "WebSearch": "WebSearch",
    "Task": "Agent",
    "TodoWrite": "TodoWrite",
}
_PATH = {"path": "file_path"}
FIELDS = {
    "Create": _PATH,
    "Read": _PATH,
    "Edit": {"path": "file_path", "old_str": "old_string", "new_str": "new_string"},
    "MultiEdit": _PATH,
}
SHELL_TOOLS = frozenset({"Execute"})
FILE_WRITE_TOOLS = frozenset({"Create", "Edit", "MultiEdit", "ApplyPatch"})
PROJECT_DIR_ENV = ("FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR")
ANSWER_CAP = CAP
# The answer field the user sees and the model never does: where what only the person may know goes
# (an approval code, cupcake.approvals). None: the agent has no such channel, and nothing private is sent.
USER_CHANNEL = "systemMessage"
USER_CHANNEL_SEEN = (
    "never sent to the model (real client 0.225.2); also kept in droid's session file under ~/.factory/sessions/"
)

CAPABILITIES = {
    "PreToolUse": row(
        "PreToolUse",
        True,
        True,
        True,
        False,
        "Error: <reason>",
        REAL,
        "deny and approve checked live; ask documented (droid takes the first hook's decision, "
        "so an allow may mask another hook's deny)",
    ),
    "PostToolUse": row("PostToolUse", True, False, False, True, "<reason>", DOC),
    "UserPromptSubmit": row(
        "UserPromptSubmit", True, False, False, True, "prompt blocked: <reason>", DOC, "did not fire in droid exec"
    ),
    "Stop": row("Stop", True, False, False, False, "continuation: <reason>", DOC),
    "SubagentStop": row("SubagentStop", True, False, False, False, "continuation: <reason>", DOC),
    "SessionStart": row("SessionStart", False, False, False, True, "", DOC, "cannot block: the user is told"),
    "SessionEnd": row("SessionEnd", False, False, False, False, "", REAL),
    "Notification": row("Notification", False, False, False, False, "", DOC),
    "PreCompact": row("PreCompact", False, False, False, False, "", DOC),
}


def action_supported(kind: str, event: str) -> bool:
    """Whether droid can honour ``kind`` (block, approve, ask, context, …) on canonical ``event``."""
    return supported(CAPABILITIES, kind, event)


# Cupcake's OS layer: each shell call Cupcake lets through is rewritten to run in Cupcake's jail.
REWRITE = rewrite(
    {"PreToolUse"},
    {"Execute"},
    ask=False,
    allow=False,
    shell="bash",
    verified=REAL,
    notes="droid drops a rewrite that comes with ask",
)

OS_LAYER = os_layer(
    ("jailed",),
    "`cupcake sync --agent droid --sandbox`",
    "",
    REAL,
)
