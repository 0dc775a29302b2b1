"""The prompts the agent is given, filled from the readable templates in ``cupcake/templates/``.

A template marks each place to fill with ``<!-- cupcake:NAME -->``; every marker is replaced in one
pass, so text put in (a CLAUDE.md, a policy file) is never searched for markers itself.
"""

from __future__ import annotations

import os
import re

TEMPLATES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "templates")
_MARKER = re.compile(r"<!-- cupcake:(\w+) -->")


def template(name: str) -> str:
    with open(os.path.join(TEMPLATES, name), encoding="utf-8") as f:
        return f.read()


def fill(text: str, values: dict) -> str:
    """Replace every marker; a marker without a value is a bug in Cupcake, never left in a prompt."""
    return _MARKER.sub(lambda m: values[m.group(1)], text)


def fenced(text: str, info: str = "") -> str:
    """``text`` in a fenced block whose fence no line of the text can close."""
    longest = max((len(m.group(0)) for m in re.finditer(r"~{3,}", text)), default=0)
    fence = "~" * max(4, longest + 1)
    return f"{fence}{info}\n{text.rstrip(chr(10))}\n{fence}"


def targets_text(targets, existing: dict) -> str:
    """Which file to write for which rules, and the policies already in place that must be kept."""
    lines = []
    for target in targets:
        lines.append(f"- {target.rules} → write `{target.tmp}`. {target.saved_as}")
    if len(targets) == 2:
        lines.append(
            "\nPut each rule in the file of its scope: no user rule in the project file, no project rule in the user file."
        )
    for target in targets:
        text = existing.get(target.final)
        if text is None:
            continue
        lines.append(
            f"\n{target.final_label} already exists. Keep each of its policies that no rule below contradicts, "
            f"unchanged and with its name, in `{target.tmp}`; mark any you change with a `# CONFLICT:` comment.\n\n"
            + fenced(text, "toml")
        )
    return "\n".join(lines)


def sources_text(discovery) -> str:
    parts = []
    for number, memory in enumerate(discovery.memories, 1):
        shown = discovery.shown(memory.path)
        parts.append(
            f"### {number}. {shown} ({memory.scope} rules; {discovery.origin_text(memory)})\n\n"
            f"Path: `{memory.path}`\n\n" + fenced(memory.text or "(empty)", "markdown")
        )
    if discovery.findings:
        notes = "\n".join(f"- {finding}" for finding in discovery.findings)
        parts.append("### What was noticed while reading them\n\n" + notes)
    return "\n\n".join(parts)


def task_prompt(discovery, targets, existing: dict) -> str:
    return fill(
        template("init_prompt.md"),
        {
            "targets": targets_text(targets, existing),
            "schema": template("init_schema.md").rstrip("\n"),
            "sources": sources_text(discovery),
        },
    )


def correction_prompt(problems, written: dict, attempt: int, attempts: int) -> str:
    """``problems``: lines ``file:line: policy "…": what is wrong``; ``written``: path → text or None."""
    files = []
    for path, text in written.items():
        body = fenced(text, "toml") if text is not None else "(you did not write this file)"
        files.append(f"`{path}`:\n\n{body}")
    return fill(
        template("init_correction.md"),
        {
            "attempt": str(attempt),
            "attempts": str(attempts),
            "problems": "\n".join(f"- {p}" for p in problems),
            "files": "\n\n".join(files),
        },
    )
