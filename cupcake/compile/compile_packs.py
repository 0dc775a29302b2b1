"""``imports = ["cupcake:<pack>"]`` and ``[packs]``: the compiler's side of the built-in rule packs
(cold path). Each pack becomes one more imported source whose policies are its rules (named by
their ids), minus the rules ``[packs] disable`` names, with ``[packs.messages]`` applied. A rule
taken in once (``cupcake:recommended`` and ``cupcake:git`` share rules) is not taken in again."""

from __future__ import annotations

from cupcake import packs
from cupcake.compile.lines import FileLines
from cupcake.problems import ERROR, WARNING, Problem, suggestion


def merged_settings(top_sources, problems) -> dict:
    """``[packs]`` of every top-level file, checked, for the packs each tier imports: {"managed": …,
    "others": …}, each {"disable": set, "levels": dict, "messages": dict, "observe": set}. The managed
    file's apply to the packs it imports and to nothing else; for the others, the project file's levels and
    messages win over the user file's and every file's ``disable`` and ``observe`` count. A rule the managed
    file took in is never taken in again, so no project or user file can disable it, lower its level,
    observe it instead of enforcing it, or change its message."""
    managed = [s for s in top_sources if getattr(s, "tier", None) == "managed"]
    others = [s for s in top_sources if getattr(s, "tier", None) != "managed"]
    return {"managed": _merged(managed, problems), "others": _merged(others, problems)}


def settings_for(source, merged: dict) -> dict:
    """The ``[packs]`` settings that apply to the packs ``source`` imports."""
    empty: dict = {"disable": set(), "levels": {}, "messages": {}, "observe": set()}
    return merged.get("managed" if getattr(source, "tier", None) == "managed" else "others") or empty


def _merged(top_sources, problems) -> dict:
    disable: set = set()
    levels: dict = {}
    observe: set = set()
    messages: dict = {}
    for source in reversed(top_sources):  # the user file last in ``paths``: read it first
        table = packs.settings_of(source.table)
        if not table:
            continue

        def report(message, key=None, severity=ERROR, source=source):
            if isinstance(key, tuple):  # ("messages", rule id): the line of that id in [packs.messages]
                line = source.lines.table_key("packs." + key[0], key[1])
            else:
                line = source.lines.table_key("packs", key) if key else None
            line = line or source.lines.top_key("packs") or _header(source.lines)
            problems.append(Problem(severity, source.name, line, None, message))

        packs.check_settings(table, report, lambda message, key: report(message, key, WARNING))
        value = table.get("disable", [])
        if isinstance(value, list):
            disable.update(v for v in value if isinstance(v, str))
        value = table.get("levels", {})
        if isinstance(value, dict):
            levels.update({k: v for k, v in value.items() if v in packs.LEVELS})
        value = table.get("messages", {})
        if isinstance(value, dict):
            messages.update({k: v for k, v in value.items() if isinstance(v, str) and v.strip()})
        value = table.get("observe", [])
        if isinstance(value, list):
            observe.update(v for v in value if isinstance(v, str))
    return {"disable": disable, "levels": levels, "messages": messages, "observe": observe}


def _header(lines):
    for number, text in enumerate(lines.lines, 1):
        if text.strip().startswith("[packs"):
            return number
    return None


class PackSource:
    """A pack, standing in for an imported policy file."""

    def __init__(self, pack, imported_by: str, root: str, table: dict, tier: str = "project"):
        self.tier = tier
        self.path = pack.path
        self.name = packs.PREFIX + pack.name
        self.root = root
        self.table = table
        self.lines = FileLines("")
        self.imported_by = imported_by


def pack_sources(source, entries, report, imported) -> list:
    """The packs ``source``'s ``imports`` names, as sources. ``report(message, entry)``."""
    if not isinstance(entries, list):
        return []
    found = []
    settings = settings_for(source, imported.pack_settings or {})
    for n, entry in enumerate(entries):
        if not isinstance(entry, str) or not entry.startswith(packs.PREFIX):
            continue
        name = entry[len(packs.PREFIX) :]
        try:
            pack = packs.load(name)
        except KeyError:
            report(f'no built-in pack "{name}"{suggestion(name, packs.names())} (see `cupcake packs`)', n)
            continue
        tables = []
        for rule in pack.rules:
            rule_id = rule["id"]
            if rule_id in settings["disable"] or rule_id in imported.pack_rules:
                continue
            imported.pack_rules.add(rule_id)
            table = packs.policy_table(rule, settings["messages"].get(rule_id), settings["levels"].get(rule_id))
            if (
                packs.observed(rule, settings.get("observe", ()))
                or name in settings.get("observe", ())
                or entry in settings.get("observe", ())
            ):
                table["mode"] = "observe"
            tables.append(table)
        # A pack's blocks come before its asks: the first hard action in list order decides, and an
        # ask (sudo) must not pre-empt a block (sudo rm -rf /). Warnings never decide.
        tables.sort(key=lambda t: t["action"]["type"] == "ask")
        found.append(PackSource(pack, source.name, source.root, {"policy": tables}, source.tier))
    return found
