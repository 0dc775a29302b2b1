"""``cupcake systems``: the pipeline a run in this project goes through, resolved as ``run`` does.

Every system with its order, its name, where it comes from (built-in, or the distribution and
version that provides it) and whether it is enabled; then the installed systems that no
configuration names (they never run). Exit code 1 when the configuration has errors or a
configured system cannot be loaded."""

from __future__ import annotations

import json
import os

from cupcake.agents import project_dir_in
from cupcake.pipeline.order import CORE, NAME_OF, Stage
from cupcake.pipeline.plan import build_plan
from cupcake.project import find_root, label, policy_files
from cupcake.stages.configure import GROUP, resolve
from cupcake.stages.registry import distribution_of, scan


def plan_report(env, cwd) -> dict:
    """The resolved plan as plain data (what ``--json`` prints)."""
    from cupcake.compile.compiler import compile_files

    root = find_root(project_dir_in(env), cwd)
    files = [p for p in policy_files(root, env) if os.path.exists(p)]
    compiled = compile_files(files, root, env) if files else {"systems": (), "problems": []}
    problems = [
        {"file": p["file"], "line": p["line"], "message": p["message"]}
        for p in compiled["problems"]
        if p["severity"] == "error"
    ]
    entries = compiled.get("systems") or ()
    off = {name: _where(file, line) for name, value, file, line in entries if value is False}
    rows: list[dict] = [
        {
            "order": order,
            "name": name,
            "from": "built-in",
            "distribution": None,
            "version": None,
            "core": order in CORE,
            "enabled": name not in off,
            "configured_in": off.get(name),
        }
        for order, name in builtin_plan()
    ]
    if compiled.get("shadow") is not None or compiled.get("observe") is not None:
        # built in, and planned only when a shadow candidate or an observed policy exists (cupcake.shadow)
        name = NAME_OF[Stage.SHADOW_EVALUATION]
        rows.append(
            {
                "order": Stage.SHADOW_EVALUATION,
                "name": name,
                "from": "built-in",
                "distribution": None,
                "version": None,
                "core": False,
                "enabled": name not in off,
                "configured_in": off.get(name, '[shadow] / mode = "observe"'),
            }
        )
    for item in resolve(entries, None):
        origin = (item.distribution, item.version) if item.distribution else None
        if origin is None and item.kind == "import path":
            origin = distribution_of(item.name.partition(":")[0])
        rows.append(
            {
                "order": item.order,
                "name": item.name,
                "from": item.kind,
                "distribution": origin[0] if origin else None,
                "version": origin[1] if origin else None,
                "core": False,
                "enabled": item.problem is None,
                "configured_in": item.where,
            }
        )
        if item.problem:
            problems.append(
                {
                    "file": item.file,
                    "line": item.line,
                    "message": f'custom system "{item.name}" could not be loaded: {item.problem}',
                }
            )
    rows.sort(key=lambda row: row["order"])
    named = {item["name"] for item in rows} | {name for name, *_ in entries}
    available = [
        {"name": name, "value": value, "distribution": dist, "version": version}
        for name, (value, dist, version) in sorted(scan(GROUP).items())
        if name not in named and value not in named
    ]
    return {
        "root": root,
        "files": [label(p, root, env) for p in files],
        "systems": rows,
        "available": available,
        "problems": problems,
    }


def builtin_plan() -> list[tuple[int, str]]:
    """(order, name) of the built-in systems in the plan ``cupcake run`` builds (the same builder)."""
    from cupcake.systems import builtin_systems

    return [(system.order, system.name) for system in build_plan(builtin_systems())]


def list_systems(env, cwd, json_out: bool = False, out=print) -> int:
    report = plan_report(env, cwd)
    if json_out:
        out(json.dumps(report, indent=2))
    else:
        out(render(report))
    return 1 if report["problems"] else 0


def render(report: dict) -> str:
    table = [("order", "system", "from", "enabled", "configured in")]
    for row in report["systems"]:
        if row["from"] == "built-in":
            origin = "built-in, core" if row["core"] else "built-in"
        elif not row["enabled"]:
            origin = f"{row['from']}, not loaded"
        elif row["distribution"]:
            origin = f"{row['distribution']} {row['version']}".strip()
        else:
            origin = f"{row['from']}, no distribution"
        table.append(
            (str(row["order"]), row["name"], origin, "yes" if row["enabled"] else "no", row["configured_in"] or "")
        )
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = []
    for line in table:
        cells = [line[0].rjust(widths[0])] + [cell.ljust(width) for cell, width in zip(line[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    if not report["files"]:
        lines.append("")
        lines.append("No policy file here: `cupcake run` does nothing in this project.")
    if report["available"]:
        lines.append("")
        lines.append("Installed, not enabled (name one in [pipeline.systems] to run it):")
        width = max(len(item["name"]) for item in report["available"])
        for item in report["available"]:
            lines.append(f"  {item['name'].ljust(width)}  {item['distribution']} {item['version']}".rstrip())
    if report["problems"]:
        lines.append("")
        for problem in report["problems"]:
            lines.append(f"{_where(problem['file'], problem['line'])}: error: {problem['message']}")
    return "\n".join(lines)


def _where(file, line) -> str:
    return f"{file}:{line}" if line else file
