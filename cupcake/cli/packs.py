"""``cupcake packs``: the built-in rule packs, their rules, and the README's packs table."""

from __future__ import annotations

import json


def packs_data() -> list:
    from cupcake import packs

    found = []
    for name in packs.names():
        pack = packs.load(name)
        found.append(
            {
                "name": name,
                "description": pack.description,
                "rules": [
                    {
                        "id": rule["id"],
                        "severity": rule.get("severity", "high"),
                        "action": rule.get("action", "block"),
                        "tools": rule.get("matcher", "Bash"),
                        "message": rule["message"],
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
        if pack["name"] == "recommended":
            continue
        for rule in pack["rules"]:
            out(f"  {rule['id']:<40} {rule['severity']:<9} {rule['action']:<6} {rule['tools']}")
    out(
        '\nEnable one in cupcake.toml: imports = ["cupcake:recommended"]. Switch a rule off:'
        ' [packs] disable = ["<rule id>"]; change its message: [packs.messages] "<rule id>" = "…".'
    )
    return 0


def markdown_table() -> str:
    """The README's packs table, generated from the packs themselves."""
    lines = ["| Pack | Rule | Severity | Action | Tools | What the agent is told |", "|---|---|---|---|---|---|"]
    for pack in packs_data():
        if pack["name"] == "recommended":
            continue
        for rule in pack["rules"]:
            first = rule["message"].split(". ")[0].rstrip(".") + "."
            first = first.replace("|", "\\|")
            lines.append(
                f"| `cupcake:{pack['name']}` | `{rule['id']}` | {rule['severity']} | {rule['action']}"
                f" | {rule['tools'].replace('|', ', ')} | {first} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
