"""The adapter seam holds: nothing outside ``cupcake/agents/`` names an agent's protocol — its payload
field names, its answer fields, its event lists, its project-directory variable, its settings directory
or its answer cap. (Claude Code's event and tool names are the canonical vocabulary policies are written
in, so they may appear anywhere; the *wire* names below may not.)"""

from __future__ import annotations

import re
from pathlib import Path

import cupcake

PACKAGE = Path(cupcake.__file__).parent
REPO_PACKAGE = Path(__file__).resolve().parents[2] / "cupcake"

# What only an adapter may know, each with why it is an agent's word and not Cupcake's.
FORBIDDEN = {
    r"hook_event_name": "the payload field naming the event",
    r"[\"']tool_name[\"']": "the payload field naming the tool (read Event.tool)",
    r"[\"']tool_input[\"']\]|get\([\"']tool_input[\"']": "reading the tool's input from the payload (read Event.tool_input)",
    r"[\"']tool_response[\"']": "the payload field of the tool's result",
    r"stop_hook_active": "Claude Code's stop-loop flag (read Event.stop_active)",
    r"[\"']session_id[\"']\]|get\([\"']session_id[\"']": "reading the session from the payload (read Event.session_id)",
    r"hookSpecificOutput|permissionDecision|additionalContext": "Claude Code's answer fields",
    r"CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|COPILOT_PROJECT_DIR|FACTORY_PROJECT_DIR": "an agent's project-directory variable",
    r"[\"']\.claude[\"']|[\"']\.gemini[\"']|[\"']\.codex[\"']|[\"']\.factory[\"']|[\"']\.cursor[\"']": "an agent's settings directory",
    r"\b10_?000\b": "an agent's answer cap",
    r"\bTOOL_EVENTS\s*=|\bBLOCKING_EVENTS\s*=|\bEVENTS\s*=\s*\(": "an agent's event list",
    # Claude Code is one adapter among six: its modules, settings keys and variables are its adapter's.
    r"cupcake\.agents\.claude\b|from cupcake\.agents import [^\n]*\bclaude\b": "Claude Code's adapter (ask cupcake.agents or agents.installers)",
    r"disableAllHooks|denyWrite|autoAllowBashIfSandboxed|[\"']permissions[\"']": "a key of Claude Code's settings",
    r"settings\.local\.json|\.cupcake-sync\.": "a file of Claude Code's settings (ask its installer)",
    r"\bCLAUDE_[A-Z_]+": "a variable of Claude Code's",
    r"[!=]=\s*[\"'](?:claude|codex|gemini|copilot|droid|cursor)[\"']|\bin\s*\(\s*[\"'](?:claude|codex|gemini|copilot|droid|cursor)[\"']": "a branch on an agent's name (ask its adapter: no per-agent if-chains)",
    r"__code__|replace\([\"']Claude Code": "probing or rewriting one agent's text for another",
}

# Where an agent's name may legitimately stand outside agents/: none but these, each with its reason.
ALLOWED = {
    # The placeholders a policy's run_command may use are Cupcake's policy language (README), named
    # after the canonical vocabulary; they are filled from the Event, not read from a payload.
    "run_command/template.py": {r"[\"']tool_name[\"']", r"[\"']session_id[\"']\]|get\([\"']session_id[\"']"},
    "run_command/check.py": {r"[\"']tool_name[\"']"},
}


def _offences(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative.startswith("agents/"):
            continue
        text = path.read_text(encoding="utf-8")
        for pattern, why in FORBIDDEN.items():
            if pattern in ALLOWED.get(relative, ()):
                continue
            for match in re.finditer(pattern, text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"cupcake/{relative}:{line}: {match.group(0)!r} is {why}")
    return found


def test_nothing_outside_agents_names_an_agents_protocol():
    offences = _offences(REPO_PACKAGE if REPO_PACKAGE.is_dir() else PACKAGE)
    assert offences == [], "\n".join(offences)


def test_the_check_can_fail(tmp_path):
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "fine.py").write_text('x = payload["hook_event_name"]\n')
    (tmp_path / "policy.py").write_text('x = payload.get("tool_input")\ncap = 10_000\n')
    (tmp_path / "sync.py").write_text(
        "from cupcake.agents.claude import hook_entries\n"
        'if agent == "codex":\n'
        '    text = text.replace("Claude Code", display)\n'
        'deny = settings["permissions"]\n'
        'root = env["CLAUDE_PROJECT_DIR"]\n'
    )
    assert sorted({o.split(": ", 1)[0] for o in _offences(tmp_path)}) == [
        "cupcake/policy.py:1",
        "cupcake/policy.py:2",
        "cupcake/sync.py:1",
        "cupcake/sync.py:2",
        "cupcake/sync.py:3",
        "cupcake/sync.py:4",
        "cupcake/sync.py:5",
    ]
