"""Built-in rule packs: ``cupcake/packs/<name>.toml``, enabled from a policy file with
``imports = ["cupcake:<name>"]`` (cold path: read only when the policies are compiled).

A pack file holds ``description`` and ``[[rule]]`` tables. A rule: ``id`` (``<pack>.<name>``),
``severity`` (critical, high, medium, low), ``level`` (its lane: "block", the default, "ask", or
"warn": the call goes ahead and the message is shown to the person and to the agent),
``message`` (what the agent should do instead), ``matcher`` (the tools, "Bash" by default),
``hook_event`` ("PreToolUse" by default), ``conditions`` (the policy language's), and
``examples.stop`` / ``examples.pass``: calls the rule must catch (block, ask or warn, by its
level) and near misses it must let through (each shares the rule's program, a piece of its paths, or
one of its ``keywords``) (a string is a Bash command; a table is
``{ tool = "Read", input = { file_path = "…" } }``).

A pack may instead gather others: ``include = ["git", …]`` and ``exclude = ["<rule id>", …]``
(``recommended`` does). In ``cupcake.toml``, ``[packs] disable = ["<rule id>"]`` switches rules
off, ``[packs.levels] "<rule id>" = "warn"`` moves a rule to another lane and
``[packs.messages] "<rule id>" = "…"`` replaces a rule's message.
"""

from __future__ import annotations

import os

PREFIX = "cupcake:"
PACK_DIR = os.path.dirname(os.path.abspath(__file__))
SEVERITIES = ("critical", "high", "medium", "low")
LEVELS = ("block", "ask", "warn")

_cache: dict = {}


class Pack:
    __slots__ = ("name", "description", "rules", "include", "exclude", "path")

    def __init__(self, name: str, description: str, rules: list, include=(), exclude=(), path: str = ""):
        self.name = name
        self.description = description
        self.rules = rules
        self.include = tuple(include)
        self.exclude = tuple(exclude)
        self.path = path


def names() -> list:
    """Every pack shipped, by name (``recommended`` first)."""
    found = sorted(f[:-5] for f in os.listdir(PACK_DIR) if f.endswith(".toml"))
    if "recommended" in found:
        found.remove("recommended")
        found.insert(0, "recommended")
    return found


def load(name: str) -> Pack:
    """The pack ``name``, its rules resolved (a gathering pack lists the rules it gathers)."""
    if name in _cache:
        return _cache[name]
    if name not in names():
        raise KeyError(name)
    import tomli

    path = os.path.join(PACK_DIR, name + ".toml")
    with open(path, "rb") as f:
        table = tomli.load(f)
    include = table.get("include", ())
    exclude = set(table.get("exclude", ()))
    rules = [dict(rule, pack=name) for rule in table.get("rule", ())]
    for other in include:
        rules.extend(r for r in load(other).rules if r["id"] not in exclude)
    pack = _cache[name] = Pack(name, table.get("description", ""), rules, include, exclude, path)
    return pack


def all_rules() -> dict:
    """Every rule of every pack, by id."""
    found: dict[str, dict] = {}
    for name in names():
        for rule in load(name).rules:
            found.setdefault(rule["id"], rule)
    return found


def level_of(rule: dict) -> str:
    return rule.get("level", "block")


def policy_table(rule: dict, message=None, level=None) -> dict:
    """The ``[[policy]]`` table a rule stands for (its name is the rule's id), in its own lane or
    in ``level`` when the team moved it."""
    text = message if isinstance(message, str) and message.strip() else rule["message"]
    text = f"{text} [{rule['id']}]"
    level = level or level_of(rule)
    if level == "ask":
        action = {"type": "ask", "reason": text}
    elif level == "warn":
        action = {"type": "warn", "message": text}
    else:
        action = {"type": "block_with_feedback", "feedback_message": text}
    table = {
        "name": rule["id"],
        "description": rule.get("description", rule["message"]),
        "hook_event": rule.get("hook_event", "PreToolUse"),
        "matcher": rule.get("matcher", "Bash"),
        "conditions": rule.get("conditions", []),
        "action": action,
    }
    return table


# ``[packs]``: rules switched off, messages replaced, rules or whole packs observed (recorded, not enforced).
SETTINGS_KEYS = ("disable", "levels", "messages", "observe")


def observed(rule: dict, observe) -> bool:
    """Whether ``[packs] observe`` names the rule, or the pack it comes from."""
    return rule["id"] in observe or rule.get("pack") in observe or PREFIX + str(rule.get("pack")) in observe


def settings_of(table) -> dict:
    """``[packs]`` of a top-level policy file: {"disable": [...], "levels": {...}, "messages": {...}}
    (as written)."""
    packs = table.get("packs") if isinstance(table, dict) else None
    return packs if isinstance(packs, dict) else {}


def check_settings(packs: dict, report, warn) -> None:
    """Report the shape of ``[packs]`` and every rule id no pack has (with the nearest one): an error
    in ``disable`` (the rule meant stays on) and in ``levels`` (the rule stays in its lane), a warning
    in ``messages`` (the message is not used) and in ``observe``, each with the key's line
    (``report(message, key)``: a key of ``[packs]``, or ``("messages", rule_id)`` / ``("levels", rule_id)``)."""
    from cupcake.problems import suggestion

    known = all_rules()
    for key in packs:
        if key not in SETTINGS_KEYS:
            report(f"[packs]: unknown key `{key}`{suggestion(key, SETTINGS_KEYS)}", key)
    observe = packs.get("observe", [])
    if not isinstance(observe, list) or not all(isinstance(o, str) for o in observe):
        report(
            '[packs] `observe` must be an array of rule ids or packs, such as ["git.force-push", "cupcake:network"]',
            "observe",
        )
        observe = []
    for entry in observe:
        pack = entry[len(PREFIX) :] if entry.startswith(PREFIX) else entry
        if entry not in known and pack not in names():
            warn(
                f'[packs] observe: no built-in rule or pack is called "{entry}"{suggestion(entry, list(known) + names())}',
                None,
            )
    disable = packs.get("disable", [])
    if not isinstance(disable, list) or not all(isinstance(d, str) for d in disable):
        report('[packs] `disable` must be an array of rule ids, such as ["git.force-push"]', "disable")
        disable = []
    messages = packs.get("messages", {})
    if not isinstance(messages, dict) or not all(isinstance(v, str) and v.strip() for v in messages.values()):
        report('[packs.messages] maps a rule id to a message: "git.force-push" = "…"', "messages")
        messages = {}
    levels = packs.get("levels", {})
    if not isinstance(levels, dict):
        report('[packs.levels] maps a rule id to a level: "git.force-push" = "ask"', "levels")
        levels = {}
    for rule_id, level in levels.items():
        if level not in LEVELS:
            report(
                f'[packs.levels] "{rule_id}": the level is one of {", ".join(LEVELS)} (got {level!r})'
                f"{suggestion(str(level), LEVELS)}",
                ("levels", rule_id),
            )
    for rule_id in disable:
        if rule_id not in known:
            report(
                f'[packs] disable: no built-in rule has the id "{rule_id}"{suggestion(rule_id, list(known))}, so no'
                " rule is switched off for it (`cupcake packs` lists the ids)",
                "disable",
            )
    for rule_id in levels:
        if rule_id not in known:
            report(
                f'[packs.levels]: no built-in rule has the id "{rule_id}"{suggestion(rule_id, list(known))}, so no'
                " rule changes lane for it (`cupcake packs` lists the ids)",
                ("levels", rule_id),
            )
    for rule_id in messages:
        if rule_id not in known:
            warn(
                f'[packs.messages]: no built-in rule has the id "{rule_id}"{suggestion(rule_id, list(known))}, so'
                " this message is never shown",
                ("messages", rule_id),
            )


def examples(rule: dict):
    """(expected, tool, tool_input, files) for each example: expected is "stop" or "pass"; files
    ({name: text}) are put in the project first (``{ command = "git add -A", files = { ".env" = "…" } }``)."""
    for expected in ("stop", "pass"):
        for example in (rule.get("examples") or {}).get(expected, ()):
            if isinstance(example, str):
                yield expected, "Bash", {"command": example}, {}
            elif "command" in example:
                yield expected, "Bash", {"command": example["command"]}, dict(example.get("files", {}))
            else:
                yield (
                    expected,
                    example.get("tool", "Bash"),
                    dict(example.get("input", {})),
                    dict(example.get("files", {})),
                )
