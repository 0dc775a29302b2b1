"""``{{placeholder}}`` templates: finding fields, looking up values, filling text.

A placeholder is ``{{name}}`` (spaces inside the braces allowed) where name is a field, optionally
followed by dotted parts: ``{{tool_input.file_path}}``, ``{{tool_input.edits.0.old_string}}``.
Anything else in double braces (``{{.State}}``, ``{{json .}}``) is left as literal text.
"""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_-]+)*)\s*\}\}")

# Values taken from the hook event; available to the command and to the feedback text.
VALUE_FIELDS = ("command", "file_path", "tool_name", "session_id", "tool_input")
# Facts about the finished command; available to the feedback text only.
RESULT_FIELDS = ("stdout", "stderr", "exit_code", "reason")


def template_fields(text: str) -> set[str]:
    """The placeholder names used in ``text``: ``{"command", "tool_input.file_path"}``."""
    if not isinstance(text, str):
        return set()
    return {m.group(1) for m in PLACEHOLDER.finditer(text)}


def ordered_fields(text: str) -> list[str]:
    """Placeholder names in order of first appearance, without repeats."""
    seen: dict[str, None] = {}
    for m in PLACEHOLDER.finditer(text):
        seen.setdefault(m.group(1), None)
    return list(seen)


def is_value_field(name: str) -> bool:
    return name in VALUE_FIELDS or name.startswith("tool_input.")


def describe_fields(with_result: bool) -> str:
    names = [
        "{{command}}",
        "{{file_path}}",
        "{{tool_name}}",
        "{{session_id}}",
        "{{tool_input}}",
        "{{tool_input.<field>}}",
    ]
    if with_result:
        names += ["{{stdout}}", "{{stderr}}", "{{exit_code}}", "{{reason}}"]
    return ", ".join(names[:-1]) + " and " + names[-1]


def value_text(value: object) -> str:
    """How a value appears in a command or a message: strings as they are, nothing as "", the rest as JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def field_value(name: str, values: dict) -> str:
    """The text for placeholder ``name``; a missing value (no file_path on a Bash call) is ""."""
    head, _, rest = name.partition(".")
    value = values.get(head) if isinstance(values, dict) else None
    if rest:
        for part in rest.split("."):
            if isinstance(value, dict):
                value = value.get(part)
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            else:
                value = None
                break
    return value_text(value)


def fill(text: str, lookup) -> str:
    """Replace each placeholder by ``lookup(name)``; a ``None`` answer leaves the placeholder as written.

    One pass: text coming from a value is never searched for placeholders again.
    """

    def replace(m: re.Match) -> str:
        found = lookup(m.group(1))
        return m.group(0) if found is None else found

    return PLACEHOLDER.sub(replace, text)
