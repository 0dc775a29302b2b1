"""``cupcake packs``: the built-in rule packs, their rules (id, level, tools, one example), and the
table of ``docs/packs.md``."""

from __future__ import annotations

import json


def example_text(tool: str, tool_input: dict) -> str:
    """One example as a person would read it: the command, or the tool and what it names."""
    if tool == "Bash":
        return str(tool_input.get("command", ""))
    shown = tool_input.get("file_path") or tool_input.get("path") or ""
    if not shown:
        shown = json.dumps(tool_input, ensure_ascii=False)
    return f"{tool} {shown}"


def first_example(rule: dict) -> str:
    from cupcake import packs

    for expected, tool, tool_input, _files in packs.examples(rule):
        if expected == "stop":
            return example_text(tool, tool_input)
    return ""


def packs_data() -> list:
    from cupcake import packs

    found = []
    for name in packs.names():
        pack = packs.load(name)
        found.append(
            {
                "name": name,
                "description": pack.description,
                "include": list(pack.include),
                "rules": [
                    {
                        "id": rule["id"],
                        "severity": rule.get("severity", "high"),
                        "level": packs.level_of(rule),
                        "tools": rule.get("matcher", "Bash"),
                        "message": rule["message"],
                        "example": first_example(rule),
                    }
                    for rule in pack.rules
                ],
            }
        )
    return found


def list_packs(json_out: bool = False, out=print) -> int:
    data = packs_data()
    if json_out:
        out(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    for pack in data:
        out(f"cupcake:{pack['name']} — {pack['description']} ({len(pack['rules'])} rules)")
        if pack["include"]:
            out("  gathers: " + ", ".join(f"cupcake:{n}" for n in pack["include"]))
            continue
        for rule in pack["rules"]:
            example = rule["example"].replace("\n", "⏎")
            if len(example) > 60:
                example = example[:59] + "…"
            out(f"  {rule['id']:<40} {rule['level']:<5} {rule['tools']:<28} e.g. {example}")
    out(
        '\nEnable one in cupcake.toml: imports = ["cupcake:recommended"]. Switch a rule off:'
        ' [packs] disable = ["<rule id>"]; move it to another lane: [packs.levels] "<rule id>" = "ask"'
        ' (block, ask or warn); change its message: [packs.messages] "<rule id>" = "…".'
    )
    return 0


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "⏎")


def _code(text: str) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds."""
    text = _cell(text)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def markdown_table() -> str:
    """The table of every rule in ``docs/packs.md``, generated from the packs themselves."""
    lines = [
        "| Rule | Level | Tools | Stops, for example | What the agent is told |",
        "|---|---|---|---|---|",
    ]
    for pack in packs_data():
        if pack["include"]:
            continue
        for rule in pack["rules"]:
            first = rule["message"].split(". ")[0].rstrip(".") + "."
            lines.append(
                f"| `{rule['id']}` | {rule['level']} | {rule['tools'].replace('|', ', ')}"
                f" | {_code(rule['example'])} | {_cell(first)} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
