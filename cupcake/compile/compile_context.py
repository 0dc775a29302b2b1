"""Checking an ``inject_context`` action when policies are compiled (cold path).

The compiled forms: ``("context", "text", text)``, ``("context", "file", relative path)`` and
``("context", "command", run_command spec)``.
"""

from __future__ import annotations

import os

from cupcake.compile import schema


def compile_context(action: dict, report):
    """The compiled action, or None after reporting every problem (messages start with the action)."""
    given = [key for key in schema.CONTEXT_SOURCES if action.get(key) is not None]
    if len(given) != 1:
        also = f" (it gives {' and '.join(f'`{k}`' for k in given)})" if given else ""
        report(f"action inject_context: give exactly one of `text`, `file` or `command`{also}", "action")
        return None
    source = given[0]
    ok = True
    if source != "command":
        for key in schema.CONTEXT_COMMAND_KEYS:
            if key in action:
                report(f"action inject_context: `{key}` applies only to a `command`", "action")
                ok = False
    value = action[source]
    if source == "text":
        if not value.strip():
            report("action inject_context: `text` must not be empty", "action")
            ok = False
        return ("context", "text", value) if ok else None
    if source == "file":
        for problem in file_problems(value):
            report(f"action inject_context: file: {problem}", "action")
            ok = False
        return ("context", "file", os.path.normpath(value)) if ok else None
    from cupcake.run_command import check_command_template

    spec = {k: v for k, v in action.items() if k != "type"}
    for problem in check_command_template(spec):
        report(f"action inject_context: {problem}", "action")
        ok = False
    return ("context", "command", spec) if ok else None


def file_problems(path: str) -> list[str]:
    """A context file is named relative to the project root and stays inside it."""
    if not path.strip():
        return ["must be a path relative to the project root, got an empty string"]
    if "\x00" in path:
        return ["contains a NUL character"]
    if os.path.isabs(path):
        return [f"must be relative to the project root, got the absolute path {path!r}"]
    normal = os.path.normpath(path)
    if normal.split(os.sep)[0] == "..":
        return [f"{path!r} leads outside the project root"]
    if normal == ".":
        return [f"{path!r} is the project root, not a file"]
    return []
