"""``cupcake validate``: the loader ``run`` uses, reporting every problem instead of failing.

Without arguments it loads the project's and the user's files exactly as ``run`` does (one ordered
list, imports included, names unique across all of them). Given files are each checked on their
own, as a project file would be (their ``imports`` relative to them).

Exit codes: 0 when there is no error (warnings only, unless ``--strict``), 1 when there is,
2 when there is nothing to check (no policy file, or a named file that does not exist; with
``--json`` the object then also holds ``"error"``, saying why).

``--json`` prints one object (schema version 1; new keys may be added, none removed)::

    {"version": 1, "ok": false, "errors": 1, "warnings": 1, "policies": 3,
     "files": ["cupcake.toml", "policies/security.toml", "~/.claude/cupcake.toml"],
     "problems": [{"severity": "error", "file": "cupcake.toml", "line": 9,
                   "policy": "No force pushes", "index": 2,
                   "message": "unknown action type \\"blok\\" (did you mean \\"block_with_feedback\\"?)",
                   "suggestion": "block_with_feedback"}]}

``file`` is shown relative to the project root (``~/`` for the home directory); ``line`` is the
line of the offending key or element, else of its ``[[policy]]`` (null when unknown); ``policy``
is the policy's name (null when it has none: ``index``, its 1-based position in the file, still
says which); ``suggestion`` is the replacement a "did you mean" names, else null.
"""

from __future__ import annotations

import os

from cupcake.agents import project_dir_in
from cupcake.problems import ERROR, WARNING, Problem

SCHEMA_VERSION = 1


class Report:
    """Everything one ``validate`` found."""

    def __init__(self):
        self.files: list[str] = []
        self.problems: list[dict] = []
        self.policies = 0
        self.shadow: list[str] = []  # what is evaluated beside the enforced set (cupcake.shadow)
        self.cache_problem: str | None = None  # the policy cache disagreed with the source (then removed)

    def add(self, compiled: dict, root: str | None = None, env=None) -> None:
        from cupcake.compile.agent_warnings import capability_warnings

        files = list(compiled.get("files", ()))
        found = (
            list(compiled["problems"])
            + system_problems(compiled, root)
            + capability_warnings(compiled, root or "", env or {})
        )
        problems = sorted(found, key=lambda p: _rank(p, files))
        self.files.extend(files)
        self.problems.extend(problems)
        self.policies += len(compiled["policies"])
        from cupcake.shadow.report import describe_sets

        self.shadow.extend(describe_sets(compiled))

    def count(self, severity: str) -> int:
        return sum(1 for p in self.problems if p["severity"] == severity)

    def failed(self, strict: bool) -> bool:
        return bool(self.count(ERROR) or (strict and self.count(WARNING)))

    def as_json(self, strict: bool) -> dict:
        found = {
            "version": SCHEMA_VERSION,
            "ok": not self.failed(strict),
            "errors": self.count(ERROR),
            "warnings": self.count(WARNING),
            "policies": self.policies,
            "files": self.files,
            "problems": self.problems,
        }
        if self.shadow:  # only where a candidate or an observed policy exists (a field added within version 1)
            found["shadow"] = self.shadow
        return found

    def lines(self) -> list[str]:
        out = []
        for p in self.problems:
            problem = Problem(p["severity"], p["file"], p["line"], p["policy"], p["message"], p.get("index"))
            where = f"{problem.file}:{problem.line}" if problem.line else problem.file
            out.append(f"{where}: {problem.severity}:{problem.who()} {problem.message}")
        errors, warnings = self.count(ERROR), self.count(WARNING)
        if not self.problems:
            out.append(f"ok: {_plural(self.policies, 'policy', 'policies')} in {', '.join(self.files)}")
        else:
            out.append(f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}")
        out.extend(self.shadow)
        return out


def system_problems(compiled: dict, root: str | None) -> list:
    """The custom systems of [pipeline.systems] that `cupcake run` could not load (an entry point
    that is not installed, an import path that does not import), found the way a run finds them.
    Not part of the compiled set: installing a package changes the answer, not the policy files."""
    entries = [e for e in compiled.get("systems") or () if e[1] is not False]
    if not entries:
        return []
    from cupcake.stages.configure import resolve

    return [
        Problem(
            ERROR, item.file, item.line, None, f'custom system "{item.name}" could not be loaded: {item.problem}'
        ).as_dict()
        for item in resolve(entries, root)
        if item.problem
    ]


def _plural(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _rank(problem: dict, files: list):
    """File order (as loaded), then line: a report reads top to bottom."""
    name = problem["file"]
    return (files.index(name) if name in files else len(files), problem["line"] or 0)


def collect(files, env, cwd=None):
    """(report, None) or (None, why there is nothing to check)."""
    from cupcake.compile.compiler import compile_files
    from cupcake.project import find_root
    from cupcake.stores.policies.loader import load

    cwd = cwd or os.getcwd()
    report = Report()
    if files:
        missing = [f for f in files if not os.path.exists(os.path.join(cwd, f))]
        if missing:
            return None, f"no such file: {', '.join(missing)}"
        base = os.path.realpath(cwd)
        for name in files:
            path = os.path.normpath(os.path.join(base, name))
            report.add(compile_files([path], base, env), base, env)
        return report, None
    root = find_root(project_dir_in(env), cwd)
    loaded = load(root, env, use_cache=False)  # the very loader `run` uses, without its cache
    if loaded is None:
        return None, "no policy file found (cupcake.toml at the project root, or ~/.claude/cupcake.toml)"
    report.add(loaded.compiled, root, env)
    report.problems.extend(_unhooked_warnings(loaded.compiled, root, env))
    report.problems.sort(key=lambda p: _rank(p, report.files))
    report.cache_problem = _cache_check(root, env, loaded.compiled)
    return report, None


def _cache_check(root: str, env, compiled: dict) -> str | None:
    """Say loudly when the policy cache disagrees with the source, and remove it so no run trusts it."""
    from cupcake.project import WORK_DIR
    from cupcake.stores.policies.cache import CACHE_NAME
    from cupcake.stores.policies.loader import cache_disagreement
    from cupcake.stores.user_secret import secret

    problem = cache_disagreement(root, env, compiled)
    secret(env, create=True)
    if problem is not None:
        try:
            os.unlink(os.path.join(root, WORK_DIR, CACHE_NAME))
            problem += "; Cupcake removed it, and the next run compiles the policy files again"
        except OSError:
            pass
    return problem


def _unhooked_warnings(compiled: dict, root: str, env) -> list:
    """A policy on an event that no installed hook calls never runs (checked only when Cupcake is
    hooked in somewhere: without any hook, `cupcake doctor` says so)."""
    from cupcake.agents.installers import installed_events, unhooked, unhooked_message

    return [
        Problem(WARNING, file, line, name, unhooked_message(event)).as_dict()
        for name, event, file, line in unhooked(compiled, installed_events(root, env))
    ]


def validate_files(files, env, json_out=False, strict=False, out=print) -> int:
    report, nothing = collect(files, env)
    if report is None:
        if json_out:
            empty = Report().as_json(strict)
            empty.update(ok=False, error=nothing)
            out(_dumps(empty))
        else:
            out(f"cupcake validate: {nothing}")
        return 2
    cache_problem = report.cache_problem
    if json_out:
        data = report.as_json(strict)
        if cache_problem:
            data.update(ok=False, cache_problem=cache_problem)
        out(_dumps(data))
    else:
        if cache_problem:
            out(f"WARNING: the policy cache was NOT trusted: {cache_problem}.")
        for line in report.lines():
            out(line)
    return 1 if report.failed(strict) or cache_problem else 0


def _dumps(data) -> str:
    import json

    return json.dumps(data, indent=2, ensure_ascii=False)
