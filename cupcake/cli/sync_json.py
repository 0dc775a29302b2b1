"""``cupcake sync --json``: what sync did, as one object for scripts. Sync runs exactly as without
``--json``; its lines are collected instead of printed, and the files it may write are compared
before and after, so the object says what changed whichever agent's hook file it was."""

from __future__ import annotations

import json
import os

SCHEMA_VERSION = 1
WARNING = "warning: "
PREFIX = "cupcake sync: "


def _bytes(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def sync_as_json(run_sync, agent: str, scope: str, env, cwd: str, dry_run: bool, uninstall: bool, out) -> int:
    """``run_sync(out, err)`` with its output collected; prints the JSON object, returns its exit code."""
    from cupcake.agents import adapter
    from cupcake.agents.installers import installer
    from cupcake.cli.sync import scope_label
    from cupcake.project import find_root

    root = find_root(adapter(agent).project_dir(env), cwd)
    install = installer(agent)
    settings = install.config_path(scope, root, env) if scope in install.SCOPES else None  # else sync says so
    # Every file of the agent's the sync may write (the personal one beside a shared one too), and .gitignore.
    others = [install.config_path(s, root, env) for s in install.SCOPES if s != "user" or scope == "user"]
    watched = list(dict.fromkeys(p for p in (settings, *others, os.path.join(root, ".gitignore")) if p))
    before = {path: _bytes(path) for path in watched}
    lines: list = []
    errors: list = []
    code = run_sync(lines.append, errors.append)
    changed = [scope_label(scope, p, root, env) for p in watched if _bytes(p) != before[p]]
    warnings = [e[len(WARNING) :] for e in errors if e.startswith(WARNING)]
    report = {
        "schema": SCHEMA_VERSION,
        "ok": code == 0,
        "exit_code": code,
        "agent": agent,
        "scope": scope,
        "action": "uninstall" if uninstall else "install",
        "dry_run": dry_run,
        "settings_file": scope_label(scope, settings, root, env) if settings else None,
        "changed": changed,
        "output": "\n".join(lines),
        "warnings": warnings,
        "errors": [e.removeprefix(PREFIX) for e in errors if not e.startswith(WARNING)],
    }
    out(json.dumps(report, indent=2, ensure_ascii=False))
    return code
