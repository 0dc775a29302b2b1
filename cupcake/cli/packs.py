"""``cupcake packs``: the built-in rule packs and their rules (id, level, tools, one example);
``cupcake packs NAME``: one pack, each rule with its message and examples; ``cupcake packs --project``:
the packs this project's policy files turn on, rule by rule (on, or off and why). Also the table of
``docs/packs.md``."""

from __future__ import annotations

import json
import os


def example_text(tool: str, tool_input: dict) -> str:
    """One example as a person would read it: the command, or the tool and what it names."""
    if tool == "Bash":
        return str(tool_input.get("command", ""))
    shown = tool_input.get("file_path") or tool_input.get("path") or ""
    if not shown:
        shown = json.dumps(tool_input, ensure_ascii=False)
    return f"{tool} {shown}"


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
                        "example": next(iter(_shown_examples(rule, "stop")), ""),
                        "examples": {"stop": _shown_examples(rule, "stop"), "pass": _shown_examples(rule, "pass")},
                    }
                    for rule in pack.rules
                ],
            }
        )
    return found


def _shown_examples(rule: dict, expected: str) -> list:
    """A rule's examples as a person reads them: the command, or the tool and what it names."""
    from cupcake import packs

    return [example_text(tool, tool_input) for kind, tool, tool_input, _f in packs.examples(rule) if kind == expected]


class UsageError(Exception):
    """The command line names no pack (exit 2)."""


def pack_named(name: str) -> dict:
    """One pack's data; ``cupcake:git`` and ``git`` both name it."""
    from cupcake import packs
    from cupcake.problems import suggestion

    bare = name.removeprefix(packs.PREFIX)
    for pack in packs_data():
        if pack["name"] == bare:
            return pack
    raise UsageError(f'no built-in pack "{name}"{suggestion(bare, packs.names())} (`cupcake packs` lists them)')


def show_pack(name: str, json_out: bool = False, out=print, err=print) -> int:
    try:
        pack = pack_named(name)
    except UsageError as exc:
        err(f"cupcake packs: {exc}")
        return 2
    if json_out:
        out(json.dumps(pack, indent=2, ensure_ascii=False))
        return 0
    out(f"cupcake:{pack['name']} — {pack['description']} ({len(pack['rules'])} rules)")
    out(f'Turn it on in cupcake.toml: imports = ["cupcake:{pack["name"]}"]')
    for rule in pack["rules"]:
        out(f"\n{rule['id']}  ({rule['severity']}, {rule['level']}, {rule['tools'].replace('|', ', ')})")
        out(f"  {rule['message']}")
        for label, kind in (("catches", "stop"), ("lets through", "pass")):
            if rule["examples"][kind]:
                out(f"  {label}: " + "; ".join(e.replace("\n", "\\n") for e in rule["examples"][kind]))
    return 0


def project_packs(root: str, env) -> dict:
    """The packs the project's (and the user's) policy files turn on, and each rule's state."""
    import tomli

    from cupcake import packs
    from cupcake.cli.sync import scope_label
    from cupcake.compile.compiler import compile_files
    from cupcake.evaluate.compiled import Policy
    from cupcake.project import policy_files

    paths = [p for p in policy_files(root, env) if os.path.exists(p)]
    compiled = compile_files(list(policy_files(root, env)), root, env)
    in_service = {policy.name: policy for policy in map(Policy, compiled["policies"])}
    named: dict = {}  # pack -> the files that import it
    disabled: dict = {}  # rule id -> the file that switches it off
    for path in paths:
        shown = scope_label("project", path, root, env)  # cupcake.toml, or ~/.claude/cupcake.toml
        try:
            with open(path, "rb") as f:
                table = tomli.load(f)
        except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError):
            continue  # validate reports it; its packs are not on
        imports = table.get("imports")
        for entry in imports if isinstance(imports, list) else ():
            if (
                isinstance(entry, str)
                and entry.startswith(packs.PREFIX)
                and entry[len(packs.PREFIX) :] in packs.names()
            ):
                named.setdefault(entry[len(packs.PREFIX) :], []).append(shown)
        off = packs.settings_of(table).get("disable")
        for rule_id in off if isinstance(off, list) else ():
            if isinstance(rule_id, str):
                disabled.setdefault(rule_id, shown)
    found = []
    for name, files in named.items():
        rules = []
        for rule in packs.load(name).rules:
            policy = in_service.get(rule["id"])
            state = {"id": rule["id"], "on": policy is not None, "why": ""}
            if policy is None:
                where = disabled.get(rule["id"])
                state["why"] = (
                    f"switched off by [packs] disable in {where}"
                    if where
                    else "out of service (see `cupcake validate`)"
                )
            elif policy.file != packs.PREFIX + name:
                state["why"] = f"taken in by {policy.file}"
            elif policy.action.kind != _ACTION_KIND[packs.level_of(rule)]:
                state["why"] = f"moved to {_LEVEL_OF[policy.action.kind]} by [packs.levels]"
            elif policy.action.text != f"{rule['message']} [{rule['id']}]":
                state["why"] = "message from [packs.messages]"
            rules.append(state)
        found.append({"name": name, "imported_by": files, "rules": rules})
    return {"packs": found}


_ACTION_KIND = {"block": "block", "ask": "ask", "warn": "warn"}
_LEVEL_OF = {kind: level for level, kind in _ACTION_KIND.items()}


def list_project_packs(env, cwd: str, json_out: bool = False, out=print) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.project import find_root

    root = find_root(project_dir_in(env), cwd)
    data = project_packs(root, env)
    if json_out:
        out(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    if not data["packs"]:
        out(
            'No pack is on in this project. Turn the recommended rules on with imports = ["cupcake:recommended"]'
            " in cupcake.toml (`cupcake packs` lists the packs)."
        )
        return 0
    for pack in data["packs"]:
        on = sum(1 for r in pack["rules"] if r["on"])
        out(
            f"cupcake:{pack['name']} (imported by {', '.join(pack['imported_by'])}): {on} of {len(pack['rules'])} rules on"
        )
        for rule in pack["rules"]:
            why = f"  {rule['why']}" if rule["why"] else ""
            out(f"  {'on ' if rule['on'] else 'off'}  {rule['id']}{why}")
    return 0


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
        "\n`cupcake packs NAME` shows a pack's rules with their messages and examples; `cupcake packs --project`"
        " shows which packs and rules this project has on."
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
