"""The cold side of shadow runs: what the compiler adds to the compiled set.

``[shadow] candidate = "cupcake.candidate.toml"`` in the project's ``cupcake.toml`` names a second
policy file: a complete replacement for ``cupcake.toml`` that is evaluated on every event beside the
enforced set (with the user's ``~/.claude/cupcake.toml``, as the enforced set has it) and never
decides. A policy with ``mode = "observe"``, and pack rules or whole packs named in
``[packs] observe``, are compiled out of the enforced set into an observed set: their decisions are
recorded, never enforced.

Problems of the candidate never put an enforced policy out of service: they are reported by
``validate`` (and block ``cupcake shadow promote``), and the run evaluates what of the candidate
compiled. Both sets have the shape a run evaluates: ``policies``, ``index``, ``agents``; their
regexes join the enforced set's SRE programs."""

from __future__ import annotations

import os

from cupcake.problems import ERROR, Problem, suggestion

TABLE = "shadow"
KEYS = ("candidate",)
MODES = ("enforce", "observe")
# What of a compiled set a run reads (the candidate's settings, files and problems stay behind).
RUN_KEYS = ("policies", "index", "agents")


class Candidate:
    """The candidate named by ``[shadow]``: its compiled set, what to protect and watch, its problems."""

    __slots__ = ("path", "label", "compiled", "protected", "identities", "forms", "problems")

    def __init__(self, path: str, label: str):
        self.path = path
        self.label = label
        self.compiled: dict | None = None
        self.protected: list[str] = [path]  # the candidate and every file it imports: promoted, they decide
        self.identities: list = []
        self.forms: dict = {}
        self.problems: list[Problem] = []


def candidate_path(source, root: str, problems) -> str | None:
    """The candidate file ``[shadow]`` of the project file names (absolute), or None; a malformed
    table is a problem of the project file."""
    table = source.table.get(TABLE) if isinstance(source.table, dict) else None
    if table is None:
        return None

    def report(message: str, key=None) -> None:
        line = source.lines.table_key(TABLE, key) or source.lines.top_key(TABLE)
        problems.append(Problem(ERROR, source.name, line, None, f"[shadow]: {message}"))

    if not isinstance(table, dict):
        report('`shadow` must be a table: [shadow] candidate = "cupcake.candidate.toml"')
        return None
    for key in table:
        if key not in KEYS:
            report(f"unknown key `{key}`{suggestion(key, KEYS)}", key)
    value = table.get("candidate")
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        report('`candidate` must name a policy file, such as "cupcake.candidate.toml"', "candidate")
        return None
    path = os.path.normpath(os.path.join(os.path.dirname(source.path), os.path.expanduser(value)))
    if os.path.realpath(path) == os.path.realpath(source.path):
        report("the candidate cannot be cupcake.toml itself", "candidate")
        return None
    if not os.path.isfile(path):
        report(f"the candidate {value} does not exist (write it beside cupcake.toml)", "candidate")
        return None
    return path


def misplaced(source, problems) -> None:
    """``[shadow]`` anywhere but the project file (the user's file, an imported file, a candidate)."""
    if isinstance(source.table, dict) and TABLE in source.table:
        line = source.lines.top_key(TABLE) or source.lines.table_key(TABLE)
        problems.append(
            Problem(
                ERROR,
                source.name,
                line,
                None,
                "[shadow] is read only from the project's cupcake.toml (a candidate cannot name another)",
            )
        )


def compile_candidate(path: str, user_file: str, root: str, env, compile_files, managed_file=None) -> Candidate:
    """The candidate compiled as ``run`` would compile it in place of ``cupcake.toml`` (after the
    organisation's managed file, when there is one; by the compiler's own ``compile_files``, which hands
    itself in: the compiler imports this module)."""
    from cupcake.project import file_identity, label

    candidate = Candidate(path, label(path, root, env))
    candidate.identities.append(file_identity(path))
    files = (managed_file, path, user_file) if managed_file else (path, user_file)
    compiled = compile_files(files, root, env, nested=True)
    candidate.identities.extend(compiled.get("imports") or ())
    candidate.protected.extend(ident[0] for ident in compiled.get("imports") or () if isinstance(ident[0], str))
    candidate.forms = compiled.pop("sre_forms", {})
    candidate.compiled = {key: compiled[key] for key in RUN_KEYS if key in compiled}
    candidate.compiled["file"] = candidate.label
    for p in compiled.get("problem_objects") or ():
        if p.file == "~/.claude/cupcake.toml" or p.file.endswith("/.claude/cupcake.toml"):
            continue  # the user's file: reported once, for the enforced set
        if managed_file and p.file == label(managed_file, root, env):
            continue  # the managed file: likewise
        p.message = f"(shadow candidate) {p.message}"
        candidate.problems.append(p)
    return candidate


def policy_mode(table) -> str:
    """``mode`` of a ``[[policy]]`` table: "enforce" (the default) or "observe" (the schema checks the value)."""
    return "observe" if isinstance(table, dict) and table.get("mode") == "observe" else "enforce"


def observed_set(policies: list, agents: dict) -> dict | None:
    """The run's form of the observed policies (None when there are none)."""
    if not policies:
        return None
    from cupcake.compile.compile_index import build_index

    return {"policies": policies, "index": build_index(policies), "agents": agents, "file": "observe"}
