"""Compile policy files into the plain, cacheable form a warm run evaluates (cold path).

Every problem is collected, not only the first. An error puts out of service only what it names
(a policy, or every policy of a file that cannot be read); the other policies are compiled and
enforced, and ``out_of_service`` holds the text every run reports.
"""

from __future__ import annotations

import os

import tomli
from pydantic_core import ValidationError

from cupcake.agents import catalog
from cupcake.compile import schema
from cupcake.compile.compile_actions import compile_action, context_events, pydantic_message
from cupcake.compile.compile_agents import compile_agents
from cupcake.compile.compile_conditions import ConditionReporter, compile_condition, compile_matcher
from cupcake.compile.compile_index import build_index, shadowed_warnings, sre_forms_of
from cupcake.compile.imports import expand as expand_imports
from cupcake.compile.lines import FileLines
from cupcake.compile.messages import explain
from cupcake.compile.state_conditions import state_plan
from cupcake.compile.tiers import merge_settings, systems_allowed
from cupcake.evaluator_findings.settings import eval_feedback_settings
from cupcake.problems import ERROR, WARNING, Problem, suggestion
from cupcake.project import TIERS, file_identity, label, tier_of
from cupcake.protection.protected_set import protected_paths
from cupcake.speedups import pack_forms
from cupcake.stages import settings as pipeline_systems

TELEMETRY = "telemetry"


class _Source:
    """One policy file while it is compiled."""

    def __init__(self, path: str, name: str, imported_by=None, root: str = ""):
        self.path = path
        self.name = name
        self.root = root
        self.table: dict | None = None
        self.lines = FileLines("")
        self.imported_by = imported_by  # the top-level file whose `imports` named this one
        self.eval_feedback_broken = False
        self.telemetry: dict | None = None  # the checked [telemetry] table of a top-level file
        self.tier = "project"  # managed, project or user: the top-level file's, or the file that imported it


def compile_files(paths, root: str, env, nested: bool = False) -> dict:
    """The compiled set: settings, the policies in service, their index, and ``out_of_service``
    (None, or the report of every error: what each one names is out of service). ``nested``: a
    shadow candidate's compile (its regexes left unpacked, its problems as objects)."""
    problems: list[Problem] = []
    sources = []
    read: dict[str, str] = {}  # real path -> the name it was read under
    budget = _Budget()
    for path in paths:
        real = os.path.realpath(path)
        if real in read and os.path.exists(path):  # e.g. a project's cupcake.toml linked to the managed file
            problems.append(
                Problem(WARNING, label(path, root, env), None, None, f"the same file as {read[real]}: read once")
            )
            continue
        source = _read(path, root, env, problems, budget=budget)
        if source is not None:
            source.tier = tier_of(path, env)
            read[real] = source.name
            sources.append(source)
    by_tier = {tier: next((s for s in sources if s.tier == tier), None) for tier in TIERS}
    managed = by_tier["managed"]
    settings = merge_settings(by_tier, problems)
    settings["eval_feedback"] = eval_feedback_settings(settings.get("eval_feedback"))

    systems: list | tuple  # check_together gives the checked entries as a tuple
    units, imported, systems = [], _Imported(budget), []
    imported.pack_settings = _pack_settings(sources, paths, problems)
    candidate = _candidate(sources, paths, root, env, problems, nested)
    for source in sources:
        _check_file(source, problems)
        if source.eval_feedback_broken:
            settings["eval_feedback"] = None  # a broken [settings.eval_feedback] is out of service
        systems.extend(pipeline_systems.check_file(source, problems))
        units.append(source)
        units.extend(_imported_sources(source, root, env, problems, imported))

    policies: list = []  # the compiled policies in service
    policy_tiers: list = []
    agents: dict[int, tuple] = {}  # policy index -> the agents it applies to (absent: every agent)
    observed: list = []  # policies in observe mode: evaluated and recorded, never enforced
    observed_agents: dict[int, tuple] = {}
    seen: dict[str, str] = {}
    positions: dict = {}  # (file, line) -> the policy's 1-based position in its file
    for source in units:
        for index, table in enumerate(_policy_tables(source)):
            positions[(source.name, source.lines.policy(index))] = index + 1
            unique = _unique_name(source, index, table, seen, problems)
            extras: dict = {}
            try:
                compiled = _compile_policy(source, index, table, problems, extras)  # its other problems count too
            except (RecursionError, MemoryError, ValueError, TypeError) as exc:  # that policy's failure alone
                line = source.lines.policy(index)
                problems.append(
                    Problem(
                        ERROR, source.name, line, None, f"cannot be compiled: {type(exc).__name__}: {exc}", index + 1
                    )
                )
                compiled = None
            if compiled is not None and unique:
                into, only = (observed, observed_agents) if extras.get("mode") == "observe" else (policies, agents)
                if extras.get("agents"):
                    only[len(into)] = extras["agents"]
                if into is policies:
                    policy_tiers.append(source.tier)
                into.append(compiled)
    systems = systems_allowed(systems, {s.name: s.tier for s in sources}, managed.name if managed else None, problems)
    systems = pipeline_systems.check_together(systems, problems)
    for warning in shadowed_warnings(policies):
        warning.index = positions.get((warning.file, warning.line))
        problems.append(warning)
    errors = [p for p in problems if p.severity == ERROR]
    if candidate is not None:  # after the errors that put policies out of service: a candidate's never do
        problems.extend(candidate.problems)
    from cupcake.compile.telemetry import merge as merge_telemetry

    telemetry = merge_telemetry({s.tier: s.telemetry for s in reversed(sources) if s.telemetry})
    result: dict = {
        "settings": settings,
        "problems": [p.as_dict() for p in problems],
        "files": [s.name for s in units],
        "tiers": tuple(policy_tiers),  # each policy's tier (managed, project, user), for doctor
        "managed_rules": tuple(p[0] for p, tier in zip(policies, policy_tiers) if tier == "managed"),
        "imports": imported.identities + (candidate.identities if candidate is not None else []),
        "protected": protected_paths(
            root,
            env,
            [p for p in paths if os.path.exists(p) or tier_of(p, env) != "managed"],  # its folder guards the rest
            [s.path for s in units if s.imported_by] + (candidate.protected if candidate is not None else []),
            imported.patterns,
            _eval_dirs(settings),
        ),
        "systems": systems,  # [pipeline.systems] of every file: (name, order or False, file, line)
        "telemetry": telemetry,
    }
    state_filters, state_needs = state_plan(policies)
    result.update(
        out_of_service=out_of_service_text(errors) if errors else None,
        policies=policies,
        agents=agents,
        index=build_index(policies),
        sre=sre_forms_of(policies),
        state_filters=state_filters,
        state_needs=state_needs,
    )
    from cupcake.shadow.compile import observed_set

    watched = observed_set(observed, observed_agents)
    if watched is not None:
        result["observe"] = watched
        result["sre"].update(sre_forms_of(observed))
    if candidate is not None and candidate.compiled is not None:
        result["shadow"] = candidate.compiled
        result["sre"].update(candidate.forms)
    if nested:
        result["sre_forms"] = result.pop("sre")
        result["problem_objects"] = problems
        return result
    # The session log (always) and the audit trail mask secrets with these patterns.
    from cupcake.stores.audit.mask import sre_forms as mask_forms

    result.setdefault("sre", {}).update(mask_forms())
    result["sre"] = pack_forms(result["sre"])
    return result


def _candidate(sources, paths, root: str, env, problems, nested: bool):
    """The shadow candidate the project file names, compiled (None when there is none). ``[shadow]``
    anywhere else, or in a candidate, is an error of that file."""
    from cupcake.project import managed_policy_file, user_policy_file
    from cupcake.shadow import compile as shadow

    found = None
    for source in sources:
        if source.tier == "project" and not nested:
            path = shadow.candidate_path(source, root, problems)
            if path is not None:
                found = shadow.compile_candidate(
                    path, user_policy_file(env), root, env, compile_files, managed_policy_file(env)
                )
        else:
            shadow.misplaced(source, problems)
    return found


def _policy_tables(source):
    tables = source.table.get("policy")
    return tables if isinstance(tables, list) else ()


def _unique_name(source, index: int, table, seen: dict, problems) -> bool:
    """Names are unique across every loaded file: a second use is an error naming both places."""
    name = table.get("name") if isinstance(table, dict) else None
    if not isinstance(name, str) or not name.strip():
        return True
    here = f"{source.name}:{source.lines.policy(index)}"
    first = seen.get(name)
    if first is None:
        seen[name] = here
        return True
    problems.append(
        Problem(
            ERROR,
            source.name,
            source.lines.key(index, "name"),
            name,
            f"duplicate policy name: also defined at {first} (names must be unique across "
            "all policy files, imported ones included)",
            index + 1,
        )
    )
    return False


def _eval_dirs(settings) -> list:
    """The eval folder when the evaluator's findings are on: the agent may not write what gates it."""
    evals = settings.get("eval_feedback")
    folder = evals.get("dir") if isinstance(evals, dict) else None
    return [folder] if isinstance(folder, str) and folder else []


# At most this many errors are listed in a run's answer (validate lists them all).
LISTED_ERRORS = 10


def out_of_service_text(errors) -> str:
    """What every run reports while the policy files have errors: each names what it puts out of
    service (a policy, or a file's policies), with its file and line."""
    n = len(errors)
    lines = [f"- {e}" for e in errors[:LISTED_ERRORS]]
    if n > LISTED_ERRORS:
        lines.append(f"- … and {n - LISTED_ERRORS} more (`cupcake validate` lists them all)")
    return "\n".join(lines)


MAX_POLICY_BYTES = 8 << 20  # a policy file larger than this is an error, not a read
MAX_TOTAL_BYTES = 32 << 20  # all policy files of one compile together (imports included)
MAX_NESTING = 64  # arrays and inline tables inside one another (real policies: under 10)


class _Budget:
    """The bytes the policy files of one compile may still take (memory and time stay bounded)."""

    __slots__ = ("left",)

    def __init__(self):
        self.left = MAX_TOTAL_BYTES


def _read_policy_bytes(path: str, source, problems, budget=None):
    """The file's bytes, or None with a problem recorded. Opening never blocks (O_NONBLOCK: a FIFO
    with no writer, a device); only a regular file is read (a directory, FIFO or device named
    cupcake.toml is an error, not a hang)."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        problems.append(Problem(ERROR, source.name, None, None, f"cannot read the file: {exc.strerror or exc}"))
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file (a FIFO, socket or device)"
            problems.append(Problem(ERROR, source.name, None, None, f"cannot read the file: it is {kind}"))
            return None
        if st.st_size > MAX_POLICY_BYTES:
            problems.append(Problem(ERROR, source.name, None, None, f"larger than {MAX_POLICY_BYTES >> 20} MiB"))
            return None
        if budget is not None and st.st_size > budget.left:
            why = f"not read: the policy files together would be larger than {MAX_TOTAL_BYTES >> 20} MiB"
            problems.append(Problem(ERROR, source.name, None, None, why))
            return None
        chunks, total = [], 0
        while total <= MAX_POLICY_BYTES:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if budget is not None:
            budget.left -= total
        return b"".join(chunks)
    except OSError as exc:
        problems.append(Problem(ERROR, source.name, None, None, f"cannot read the file: {exc.strerror or exc}"))
        return None
    finally:
        os.close(fd)


def _read(path: str, root: str, env, problems, imported_by=None, budget=None):
    source = _Source(path, label(path, root, env), imported_by, root)
    data = _read_policy_bytes(path, source, problems, budget)
    if data is None:
        return None
    try:
        text = data.decode("utf-8-sig")  # a byte order mark, as some editors write, is no statement
    except UnicodeDecodeError as exc:
        problems.append(Problem(ERROR, source.name, None, None, f"not UTF-8 text: {exc}"))
        return None
    source.lines = FileLines(text)
    from cupcake.compile.toml_errors import too_deep

    deep = too_deep(text, MAX_NESTING)
    if deep is not None:  # refused before parsing: the parser and the checks after it recurse
        problems.append(
            Problem(
                ERROR,
                source.name,
                deep,
                None,
                f"arrays and inline tables are nested more than {MAX_NESTING} deep here: the file is not read",
            )
        )
        return None
    try:
        source.table = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        from cupcake.compile.toml_errors import where_and_why

        line, why = where_and_why(text, exc)
        problems.append(Problem(ERROR, source.name, line, None, f"not valid TOML: {why}"))
        return None
    except (RecursionError, MemoryError, ValueError) as exc:  # whatever the parser gives up on: this file only
        problems.append(Problem(ERROR, source.name, None, None, f"cannot be read: {exc}"))
        return None
    return source


def _check_file(source, problems) -> None:
    table = source.table
    rest = {k: v for k, v in table.items() if k not in ("imports", "pipeline", "packs", "shadow", TELEMETRY)}
    _check_file_model(
        source, rest, ("policy_schema_version", "settings", "policy", "imports", "packs", TELEMETRY), problems
    )
    if TELEMETRY in table:
        source.telemetry = _check_telemetry(source, table[TELEMETRY], problems)
    settings = table.get("settings")
    if isinstance(settings, dict):
        if "eval_feedback" in settings:
            _check_eval_feedback(source, settings["eval_feedback"], problems)
            settings = {k: v for k, v in settings.items() if k != "eval_feedback"}
        try:
            schema.SETTINGS_TABLE.validate(settings)
        except ValidationError as exc:
            for loc, message in explain(exc.errors(), schema.SETTINGS_TABLE.keys):
                key = str(loc[0]) if loc else "settings"
                problems.append(Problem(ERROR, source.name, source.lines.top_key(key), None, "settings: " + message))


def _check_telemetry(source, table, problems):
    """``[telemetry]`` (see ``cupcake.telemetry.config``): a table with an error is out of service as a whole."""
    from cupcake.compile.telemetry import check

    def report(message: str, key=None) -> None:
        line = source.lines.table_key(TELEMETRY, key) if key else None
        problems.append(Problem(ERROR, source.name, line or _table_header(source.lines, TELEMETRY), None, message))

    return check(table, report)


def _check_file_model(source, table, known, problems) -> None:
    try:
        schema.FILE_TABLE.validate(table)
    except ValidationError as exc:
        for loc, message in explain(exc.errors(), known):
            key = str(loc[0]) if loc else ""
            line = (source.lines.top_key(key) or _table_header(source.lines, key)) if key else None
            if key == "policy" and "must be an array" in message:
                message += " (write each policy under [[policy]], with two brackets)"
            problems.append(Problem(ERROR, source.name, line, None, message))


def _check_eval_feedback(source, table, problems) -> None:
    """``[settings.eval_feedback]``: the keys, and events on which context reaches the model."""
    name = "settings.eval_feedback"

    def report(message: str, key: str | None = None) -> None:
        line = source.lines.table_key(name, key)
        source.eval_feedback_broken = True
        problems.append(Problem(ERROR, source.name, line, None, f"settings: {message}"))

    if not isinstance(table, dict):
        report("`eval_feedback` must be a table, such as [settings.eval_feedback] with enabled = true")
        return
    try:
        schema.EVAL_FEEDBACK_TABLE.validate(table)
    except ValidationError as exc:
        for err in exc.errors():
            key = str(err["loc"][0]) if err["loc"] else None
            located = dict(err, loc=("eval_feedback",) + tuple(err["loc"]))
            report(pydantic_message(located, schema.EVAL_FEEDBACK_TABLE.keys), key)
    events = table.get("events", ())
    for event in events if isinstance(events, list) else ():
        if not isinstance(event, str):
            continue  # reported by the model
        if event not in catalog.events():
            report(
                f'`eval_feedback.events`: unknown hook_event "{event}"{suggestion(event, catalog.events())}', "events"
            )
        elif event not in catalog.context_events():
            report(
                f"`eval_feedback.events`: Claude Code passes no context to the model on {event}"
                f" (it can on {context_events()})",
                "events",
            )
    folder = table.get("dir", "logs/evals")
    if isinstance(folder, str) and (not folder.strip() or "\x00" in folder):
        report("`eval_feedback.dir` must name a directory (relative to the project root)", "dir")


def _compile_policy(source, index: int, table, problems, extras=None):
    """The compiled policy, or None when it has an error; ``extras`` gets what the tuple does not
    hold (``agents``: the agents it applies to)."""
    lines = source.lines
    line = lines.policy(index)
    if not isinstance(table, dict):
        problems.append(Problem(ERROR, source.name, line, None, "a [[policy]] must be a table"))
        return None
    name = table.get("name") if isinstance(table.get("name"), str) else None
    start = len(problems)

    def report(message: str, key=None, severity: str = ERROR) -> None:
        """``key``: a key of the policy, or a path into it such as ("conditions", 2)."""
        problems.append(Problem(severity, source.name, lines.at(index, key) if key else line, name, message, index + 1))

    try:
        schema.POLICY_TABLE.validate(table)
    except ValidationError as exc:
        for loc, message in explain(exc.errors(), schema.POLICY_TABLE.keys):
            if (
                loc
                and loc[0] in ("conditions", "action")
                and (len(loc) > 1 or (loc[0] == "action" and "action" in table))
            ):
                continue  # each condition and the action are checked below, with better words
            if loc == ("name",) and "name" not in table:
                message = "missing required key `name`: every policy needs a name, unique across all policy files"
            report(message, loc[0] if loc else None)
    if name is not None and not name.strip():
        report("`name` must not be empty", "name")
    event = table.get("hook_event", "PreToolUse")
    if isinstance(event, str) and event not in catalog.events():
        report(f'unknown hook_event "{event}"{suggestion(event, catalog.events())}', "hook_event")
    matcher = table.get("matcher")
    tools = compile_matcher(matcher, event, report)
    conditions = table.get("conditions", [])
    compiled_conditions = []
    if isinstance(conditions, list):
        for n, condition in enumerate(conditions):
            compiled_conditions.append(
                compile_condition(condition, ConditionReporter(report, ("conditions", n)), source.root)
            )
    action = compile_action(table.get("action"), event, report)
    only = compile_agents(table.get("agents"), report)
    if extras is not None:
        extras["agents"] = only
        if "mode" in table:
            from cupcake.shadow.compile import policy_mode

            extras["mode"] = policy_mode(table)
    if len(problems) > start and any(p.severity == ERROR for p in problems[start:]):
        return None
    return (name, event, tools, tuple(compiled_conditions), action, source.name, line)


def _pack_settings(sources, paths, problems) -> dict:
    """``[packs]`` of the top-level files, checked and merged (see ``cupcake.compile.compile_packs``)."""
    from cupcake.compile.compile_packs import merged_settings

    return merged_settings([s for s in sources if s.path in paths], problems)


class _Imported:
    """What the imports of every top-level file added up to: the cache's extra identities (each
    imported file and each directory a glob scanned) and the patterns self-protection guards."""

    def __init__(self, budget=None):
        self.budget = budget
        self.identities: list = []
        self.patterns: list = []
        self.pack_settings: dict = {}
        self.pack_rules: set = set()  # the ids of the pack rules already taken in


def _imported_sources(source, root: str, env, problems, imported: _Imported) -> list:
    """The files ``source``'s ``imports`` names, read and checked, in order (policies only)."""
    entries = source.table.get("imports")
    if entries is None:
        return []

    def at(entry):
        return source.lines.top(("imports", entry)) if entry is not None else source.lines.top_key("imports")

    def report(message: str, entry=None) -> None:
        problems.append(Problem(ERROR, source.name, at(entry), None, f"imports: {message}"))

    def warn(message: str, entry=None) -> None:
        problems.append(Problem(WARNING, source.name, at(entry), None, f"imports: {message}"))

    from cupcake.compile.compile_packs import pack_sources

    packs = pack_sources(source, entries, report, imported)
    expansion = expand_imports(source.path, entries, report, warn)
    imported.patterns.extend(expansion.patterns)
    found = []
    imported.identities.extend(expansion.watched)  # each taken just before it was looked into
    for item in expansion.files:
        imported.identities.append(file_identity(item.path))  # before reading: a later change is seen
        child = _read(item.path, root, env, problems, imported_by=source.name, budget=imported.budget)
        if child is not None:
            child.tier = source.tier
            _check_imported_file(child, problems)
            found.append(child)
    return found + packs


def _check_imported_file(source, problems) -> None:
    """An imported file holds policies only: settings and imports are read from the top-level files."""
    table = source.table
    for key, why in (
        ("settings", "settings are read only from cupcake.toml and ~/.claude/cupcake.toml"),
        (
            "imports",
            f"this file is imported by {source.imported_by}, and only cupcake.toml and "
            "~/.claude/cupcake.toml may import, so imports never nest and never form a cycle",
        ),
        ("pipeline", "pipeline systems are configured only in cupcake.toml and ~/.claude/cupcake.toml"),
    ):
        if key in table:
            line = source.lines.top_key(key) or _table_header(source.lines, key)
            problems.append(
                Problem(ERROR, source.name, line, None, f"`{key}` is not allowed in an imported file: {why}")
            )
    rest = {k: v for k, v in table.items() if k not in ("settings", "imports", "pipeline")}
    _check_file_model(source, rest, ("policy_schema_version", "policy"), problems)


def _table_header(lines, key: str):
    for number, text in enumerate(lines.lines, 1):
        stripped = text.strip()
        if stripped.startswith("[") and stripped.strip("[] ").split(".")[0].strip() == key:
            return number
    return None
