"""What the person reviews before anything is saved: one line per policy, and the diff against the
file it replaces."""

from __future__ import annotations

import difflib

import tomli

from cupcake.agents.catalog import tool_events

TEXT_LIMIT = 60  # characters of a message or pattern shown in a summary line


def _short(text, limit: int = TEXT_LIMIT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


_CHECKS = {
    "command_regex": "command",
    "filepath_regex": "file path",
    "file_content_regex": "content",
}


def describe_condition(cond) -> str:
    if not isinstance(cond, dict):
        return "?"
    if "not" in cond and "type" not in cond:
        return f"not ({describe_condition(cond['not'])})"
    if "any" in cond and "type" not in cond:
        inner = cond["any"] if isinstance(cond["any"], list) else []
        return "(" + " or ".join(describe_condition(c) for c in inner) + ")"
    kind = cond.get("type")
    if kind in _CHECKS:
        return f"{_CHECKS[kind]} ~ /{_short(cond.get('value', ''), 40)}/"
    if kind == "field":
        if "equals" in cond:
            value = cond["equals"]
            shown = f'"{value}"' if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else value
            return f"{cond.get('path')} = {_short(shown, 40)}"
        return f"{cond.get('path')} ~ /{_short(cond.get('regex', ''), 40)}/"
    details = ", ".join(f"{k}={_short(v, 30)}" for k, v in cond.items() if k != "type")
    return f"{kind}({details})"


def describe_action(action) -> str:
    if not isinstance(action, dict):
        return "?"
    kind = action.get("type")
    if kind == "block_with_feedback":
        return f'block: "{_short(action.get("feedback_message", ""))}"'
    if kind == "provide_feedback":
        return f'feedback: "{_short(action.get("message", ""))}"'
    if kind == "approve":
        return "approve" + (f': "{_short(action["reason"])}"' if action.get("reason") else "")
    if kind == "ask":
        return f'ask the person: "{_short(action.get("reason", ""))}"'
    if kind == "inject_context":
        if "file" in action:
            return f"context from the file {_short(action['file'], 40)}"
        if "command" in action:
            return f"context from `{_short(action['command'], 40)}`"
        return f'context: "{_short(action.get("text", ""))}"'
    if kind == "run_command":
        on_failure = action.get("on_failure", "block")
        return f"run `{_short(action.get('command', ''), 40)}`, on failure: {on_failure}"
    details = ", ".join(f"{k}={_short(v, 30)}" for k, v in action.items() if k != "type")
    return f"{kind}" + (f" ({details})" if details else "")


def summary_lines(text: str) -> list[str]:
    """One line per policy: name, event and matcher, what it checks, what it does."""
    table = tomli.loads(text)
    lines = []
    for number, policy in enumerate(table.get("policy", []), 1):
        event = policy.get("hook_event", "PreToolUse")
        matcher = policy.get("matcher")
        on = (
            f"{event} {matcher}"
            if matcher not in (None, "", "*")
            else f"{event} (every tool)"
            if event in tool_events()
            else event
        )
        conditions = policy.get("conditions") or []
        checks = "if " + " and ".join(describe_condition(c) for c in conditions) if conditions else "always"
        lines.append(f"{number:>3}. {policy.get('name')}: {on}; {checks}; {describe_action(policy.get('action'))}")
    return lines


def diff_lines(old: str | None, new: str, label: str) -> list[str]:
    if old is None:
        return []
    return [
        line.rstrip("\n")
        for line in difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True), f"{label} (now)", f"{label} (proposed)"
        )
    ]
