"""``cupcake validate``: the loader `run` uses, reporting every problem instead of failing."""

from __future__ import annotations

import json
import os

from cupcake.policy.compiler import compile_files
from cupcake.policy.paths import find_root, policy_files


def validate_files(files, env, json_out=False, strict=False, out=print) -> int:
    root = find_root(env, os.getcwd())
    if files:
        paths = [os.path.abspath(f) for f in files]
        missing = [f for f in files if not os.path.exists(f)]
        if missing:
            out(f"cupcake validate: no such file: {', '.join(missing)}")
            return 2
    else:
        paths = [p for p in policy_files(root, env) if os.path.exists(p)]
        if not paths:
            out("cupcake validate: no policy file found (cupcake.toml at the project root or ~/.claude/cupcake.toml)")
            return 2
    compiled = compile_files(paths, root, env)
    problems = compiled["problems"]
    errors = [p for p in problems if p["severity"] == "error"]
    warnings = [p for p in problems if p["severity"] == "warning"]
    if json_out:
        out(json.dumps({"files": paths, "problems": problems, "policies": len(compiled["policies"])}, indent=2))
    else:
        for p in problems:
            where = f"{p['file']}:{p['line']}" if p["line"] else p["file"]
            who = f' policy "{p["policy"]}":' if p["policy"] else ""
            out(f"{where}: {p['severity']}:{who} {p['message']}")
        if not problems:
            out(f"ok: {len(compiled['policies'])} policies in {len(paths)} file(s)")
        else:
            out(f"{len(errors)} error(s), {len(warnings)} warning(s)")
    if errors or (strict and warnings):
        return 1
    return 0
