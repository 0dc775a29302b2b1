"""``[pipeline.systems]``: which custom systems run, at which order, and which built-ins are off
(cold path: checked when policies are compiled, stored in the compiled set).

    [pipeline.systems]
    acme-secrets = 450                      # an installed entry point (group cupcake.systems)
    "acme_cupcake.audit:SplunkSink" = 850   # or an import path
    audit_write = false                     # turn a built-in off (core systems cannot be)

The table applies to the file that names it; entries of both files run together, so a name
configured in both, or two systems on one order, are errors. Whether an entry point is installed
is known only when a run looks it up: a missing one is that run's failure, not a compile error.
"""

from __future__ import annotations

import re

from cupcake.pipeline.order import BUILTIN_ORDER, CORE, Stage
from cupcake.problems import ERROR, WARNING, Problem, suggestion
from cupcake.stages.registry import is_import_path

TABLE = "pipeline.systems"
BUILTIN = {name: order for order, name in BUILTIN_ORDER}
ENTRY_POINT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
CORE_WHY = "it parses the event, loads or evaluates the policies, or guarantees and renders the answer"


def check_file(source, problems) -> list:
    """The entries ``(name, order or False, file, line)`` of one file's ``[pipeline.systems]``."""
    pipeline = source.table.get("pipeline")
    if pipeline is None:
        return []

    def report(message, line=None, severity=ERROR):
        problems.append(Problem(severity, source.name, line, None, message))

    if not isinstance(pipeline, dict):
        report("`pipeline` must be a table: [pipeline.systems]", source.lines.top_key("pipeline"))
        return []
    for key in pipeline:
        if key != "systems":
            report(
                f"unknown key `pipeline.{key}`{suggestion(key, ['systems'])}", source.lines.table_key("pipeline", key)
            )
    systems = pipeline.get("systems")
    if systems is None:
        return []
    if not isinstance(systems, dict):
        report(
            "[pipeline.systems] must be a table of `name = order` (or `name = false` for a built-in)",
            source.lines.table_key("pipeline", "systems"),
        )
        return []
    entries = []
    for name, value in systems.items():
        line = source.lines.table_key(TABLE, name)
        entry = _check_entry(name, value, lambda message, severity=ERROR, line=line: report(message, line, severity))
        if entry is not None:
            entries.append((name, entry, source.name, line))
    return entries


def _check_entry(name: str, value, report):
    where = f'[pipeline.systems] "{name}"'
    builtin = name in BUILTIN
    if value is False:
        if not builtin:
            report(
                f"{where} = false: false turns a built-in system off, and there is no built-in system"
                f' "{name}"{suggestion(name, BUILTIN)}; a custom system runs only where it is named, so leave it out'
            )
        elif BUILTIN[name] in CORE:
            report(f'{where} = false: "{name}" is a core system ({CORE_WHY}) and cannot be turned off')
        else:
            return False
        return None
    if value is True:
        report(f"{where} = true: give the order it runs at (an integer such as 450), or false to turn a built-in off")
        return None
    if not isinstance(value, int):
        report(f"{where}: the value must be an order (an integer such as 450) or false, got {type(value).__name__}")
        return None
    if builtin:
        report(
            f"{where} = {value}: built-in systems keep their place in the order table; only false (off) applies to them"
        )
        return None
    if not (is_import_path(name) or ENTRY_POINT_NAME.fullmatch(name)):
        report(
            f'{where}: neither an entry-point name (letters, digits, "-", "_", ".") nor an import path'
            ' ("package.module:Class")'
        )
        return None
    if value <= Stage.POLICY_LOAD:
        report(
            f"{where} = {value}: custom systems run after the policies are loaded ({Stage.POLICY_LOAD}), which"
            f" is where [pipeline.systems] is read; give it an order above {Stage.POLICY_LOAD}"
        )
        return None
    if not is_import_path(name):
        import difflib

        close = difflib.get_close_matches(name, BUILTIN, n=1, cutoff=0.85)
        if close:
            report(
                f'{where} is not a built-in system (did you mean "{close[0]}"?); it will be looked up as an'
                " installed entry point",
                WARNING,
            )
    return value


def check_together(entries, problems) -> tuple:
    """Entries of every file, checked as one plan: no name twice, no two systems on one order."""
    first: dict = {}
    taken = {order: f"the built-in {name}" for order, name in BUILTIN_ORDER}
    for name, value, _file, _line in entries:
        if value is False:
            taken.pop(BUILTIN[name], None)
    kept = []
    for entry in entries:
        name, value, file, line = entry
        where = f"{file}:{line}" if line else file
        if name in first:
            if value is False and first[name][1] is False:
                continue  # turned off in both files: the same wish
            problems.append(
                Problem(
                    ERROR,
                    file,
                    line,
                    None,
                    f'[pipeline.systems] "{name}" is configured twice (first at {first[name][0]})',
                )
            )
            continue
        first[name] = (where, value)
        if value is not False:
            if value in taken:
                problems.append(
                    Problem(
                        ERROR,
                        file,
                        line,
                        None,
                        f'[pipeline.systems] "{name}" = {value}: order {value} is taken by {taken[value]};'
                        f" two systems never share an order: give it a free number such as {_free_near(value, taken)}",
                    )
                )
                continue
            taken[value] = f'"{name}" ({where})'
        kept.append(entry)
    return tuple(kept)


def _free_near(order: int, taken) -> int:
    for step in (50, -50, 10, -10, 25, -25, 1, -1, 100, 200):
        candidate = order + step
        if candidate > Stage.POLICY_LOAD and candidate not in taken:
            return candidate
    return max(taken) + 100
