"""``cupcake shadow promote``: the candidate becomes the enforced set, after the person has seen what
changes and said yes (or given ``--yes``).

Shown first: the policies the candidate adds, removes and changes, what the shadow log recorded
(how many events it decides otherwise, and how), and the file diff. The candidate replaces
``cupcake.toml`` whole (its ``[settings]`` included, so ``[shadow]`` ends with it); the old file is
kept as ``cupcake.toml.bak``. Refused when the candidate has errors, or when, written as
``cupcake.toml``, it would not compile to the same policies (an import that only resolves beside
the candidate)."""

from __future__ import annotations

import difflib
import os

from cupcake.errors import CupcakeError


def _policies(compiled: dict | None) -> dict:
    """name -> what decides (event, matcher, conditions, action): file and line left out."""
    found = {}
    for key in ("policies",):
        for p in (compiled or {}).get(key) or ():
            found[p[0]] = tuple(p[1:5])
    for p in ((compiled or {}).get("observe") or {}).get("policies") or ():
        found[p[0]] = ("observe",) + tuple(p[1:5])
    return found


def policy_diff(enforced: dict, candidate: dict) -> tuple[list[str], list[str], list[str]]:
    added = sorted(set(candidate) - set(enforced))
    removed = sorted(set(enforced) - set(candidate))
    changed = sorted(name for name in set(enforced) & set(candidate) if enforced[name] != candidate[name])
    return added, removed, changed


def promote(env, cwd, yes: bool, out, err, ask) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.compile.compiler import compile_files
    from cupcake.project import PROJECT_FILE, find_root, label, user_policy_file
    from cupcake.shadow.log import read
    from cupcake.shadow.report import summarize

    root = find_root(project_dir_in(env), cwd)
    project = os.path.join(root, PROJECT_FILE)
    if not os.path.isfile(project):
        err(f"cupcake shadow promote: no {PROJECT_FILE} at {root}")
        return 1
    compiled = compile_files((project, user_policy_file(env)), root, env)
    from cupcake.shadow import compile as shadow

    table = _table(project)
    path = shadow.candidate_path(_Source(project, table), root, []) if table is not None else None
    if path is None or compiled.get("shadow") is None:
        err(
            f'cupcake shadow promote: {PROJECT_FILE} names no candidate ([shadow] candidate = "<file>"), or it cannot be read'
        )
        return 1
    name = label(path, root, env)
    errors = [p for p in compiled["problems"] if p["severity"] == "error" and p["file"] == name]
    if errors:
        err(f"cupcake shadow promote: {name} has errors, so it is not promoted:")
        for p in errors:
            where = f"{p['file']}:{p['line']}" if p["line"] else p["file"]
            err(f"  {where}: {p['message']}")
        return 1
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(project, encoding="utf-8") as f:
        current = f.read()
    candidate_policies = _candidate_policies(text, root, env)
    if candidate_policies != _policies(_nested(path, root, env)):
        err(
            f"cupcake shadow promote: written as {PROJECT_FILE}, {name} would not load the same policies "
            f"(does it import files relative to its own folder?); move it beside {PROJECT_FILE} first"
        )
        return 1
    added, removed, changed = policy_diff(_policies(compiled), candidate_policies)
    out(f"Promote {name} to {PROJECT_FILE} (the enforced set):")
    for what, names in (("adds", added), ("removes", removed), ("changes", changed)):
        if names:
            out(f"  {what} {len(names)}: {', '.join(names[:20])}{' …' if len(names) > 20 else ''}")
    if not (added or removed or changed):
        out("  no policy changes (only the file's text differs)")
    summary = summarize(read(root))
    if summary["events"]:
        changes = ", ".join(f"{k}: {v}" for k, v in summary["changes"].items()) or "none"
        out(
            f"  the shadow log recorded {summary['events']} event{'s' if summary['events'] != 1 else ''} since {summary['first']}; the candidate decides "
            f"{summary['differences']} of them otherwise ({changes})"
        )
    else:
        out("  the shadow log has recorded no difference yet")
    out(f"  the candidate replaces {PROJECT_FILE} whole, its [settings] included; [shadow] ends with it")
    out("")
    diff = difflib.unified_diff(
        current.splitlines(),
        text.splitlines(),
        f"{PROJECT_FILE} (enforced)",
        f"{PROJECT_FILE} (candidate)",
        lineterm="",
    )
    for line in diff:
        out(line)
    out("")
    if not yes and not ask(f"Make {name} the enforced set?"):
        out("Nothing changed.")
        return 1
    backup = project + ".bak"
    _write(backup, current)
    _write(project, text)
    out(f"{PROJECT_FILE} now holds the candidate (the previous file is {PROJECT_FILE}.bak).")
    out(f"{name} is no longer read; delete it when you no longer need it.")
    return 0


def _table(path: str):
    import tomli

    try:
        with open(path, "rb") as f:
            return tomli.load(f)
    except (OSError, tomli.TOMLDecodeError):
        return None


class _Source:
    """What ``candidate_path`` reads of the project file."""

    def __init__(self, path: str, table: dict):
        from cupcake.compile.lines import FileLines

        self.path = path
        self.name = os.path.basename(path)
        self.table = table
        with open(path, encoding="utf-8") as f:
            self.lines = FileLines(f.read())


def _nested(path: str, root: str, env) -> dict:
    from cupcake.compile.compiler import compile_files
    from cupcake.project import user_policy_file

    return compile_files((path, user_policy_file(env)), root, env)


def _candidate_policies(text: str, root: str, env) -> dict:
    """The policies ``text`` compiles to when it stands where ``cupcake.toml`` stands."""
    import tempfile

    fd, trial = tempfile.mkstemp(prefix=".cupcake-promote-", suffix=".toml", dir=root)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        return _policies(_nested(trial, root, env))
    finally:
        os.unlink(trial)


def _write(path: str, text: str) -> None:
    import tempfile

    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".cupcake-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o777)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise CupcakeError(f"could not write {path}: {exc.strerror or exc}") from None
