"""Compile policy files into the plain, cacheable form a warm run evaluates (cold path).

Every problem is collected, not only the first: the load fails when any is an error.
"""

from __future__ import annotations

import re

import tomli
from pydantic import ValidationError

from cupcake.agents.claude_code import CONTEXT_EVENTS, EVENTS, TOOL_EVENTS, action_supported
from cupcake.evalfeedback.settings import eval_feedback_settings
from cupcake.policy import pipeline_systems, schema
from cupcake.policy.imports import expand as expand_imports
from cupcake.policy.lines import FileLines
from cupcake.policy.literals import required_literals
from cupcake.policy.messages import explain
from cupcake.policy.paths import label
from cupcake.policy.problems import ERROR, WARNING, Problem, suggestion
from cupcake.policy.self_protection import protected_paths
from cupcake.policy.settings import merge, raw_settings
from cupcake.policy.state_conditions import compile_state_condition, compile_update_state, state_plan

_NAME_LIST = re.compile(r"[A-Za-z0-9_-]+(\|[A-Za-z0-9_-]+)*")

# The action kinds the evaluation knows: soft messages, hard decisions, context, side effects.
ACTION_KIND = {
    "provide_feedback": "soft", "block_with_feedback": "block", "approve": "approve", "ask": "ask",
    "inject_context": "context",
}  # fmt: skip


class _Source:
    """One policy file while it is compiled."""

    def __init__(self, path: str, name: str, imported_by=None, root: str = ""):
        self.path = path
        self.name = name
        self.root = root
        self.table = None
        self.lines = FileLines("")
        self.imported_by = imported_by  # the top-level file whose `imports` named this one


def compile_files(paths, root: str, env) -> dict:
    """The compiled set: settings, policies, index; or, when any error was found, the error."""
    problems: list[Problem] = []
    sources = []
    for path in paths:
        source = _read(path, root, env, problems)
        if source is not None:
            sources.append(source)
    project = raw_settings(sources[0].table) if sources and sources[0].path == paths[0] else {}
    user = raw_settings(sources[-1].table) if sources and sources[-1].path == paths[-1] else {}
    settings = merge(project, user)
    settings["eval_feedback"] = eval_feedback_settings(settings.get("eval_feedback"))

    units, imported, systems = [], _Imported(), []
    for source in sources:
        _check_file(source, problems)
        systems.extend(pipeline_systems.check_file(source, problems))
        units.append(source)
        units.extend(_imported_sources(source, root, env, problems, imported))

    policies = []
    seen: dict[str, str] = {}
    positions: dict = {}  # (file, line) -> the policy's 1-based position in its file
    for source in units:
        for index, table in enumerate(_policy_tables(source)):
            positions[(source.name, source.lines.policy(index))] = index + 1
            unique = _unique_name(source, index, table, seen, problems)
            compiled = _compile_policy(source, index, table, problems)  # its other problems count too
            if compiled is not None and unique:
                policies.append(compiled)
    systems = pipeline_systems.check_together(systems, problems)
    for warning in _shadowed(policies):
        warning.index = positions.get((warning.file, warning.line))
        problems.append(warning)
    errors = [p for p in problems if p.severity == ERROR]
    result = {
        "settings": settings,
        "problems": [p.as_dict() for p in problems],
        "files": [s.name for s in units],
        "imports": imported.identities,
        "protected": protected_paths(root, env, paths, [s.path for s in units if s.imported_by], imported.patterns),
        "systems": systems,  # [pipeline.systems] of every file: (name, order or False, file, line)
    }
    if errors:
        result.update(error=_summary(errors), policies=[], index={})
    else:
        state_filters, state_needs = state_plan(policies)
        result.update(error=None, policies=policies, index=_index(policies), sre=_sre_forms(policies),
                      state_filters=state_filters, state_needs=state_needs)  # fmt: skip
    # The session log (always) and the audit trail mask secrets with these patterns.
    from cupcake.audit.mask import sre_forms as mask_forms

    result.setdefault("sre", {}).update(mask_forms())
    return result


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
    problems.append(Problem(ERROR, source.name, source.lines.key(index, "name"), name,
                            f"duplicate policy name: also defined at {first} (names must be unique across "
                            "all policy files, imported ones included)", index + 1))  # fmt: skip
    return False


def _summary(errors) -> str:
    head = f"{len(errors)} error{'s' if len(errors) > 1 else ''} in the policy files"
    return head + ":\n" + "\n".join(f"- {e}" for e in errors)


def _read(path: str, root: str, env, problems, imported_by=None):
    source = _Source(path, label(path, root, env), imported_by, root)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        problems.append(Problem(ERROR, source.name, None, None, f"cannot read the file: {exc.strerror or exc}"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(Problem(ERROR, source.name, None, None, f"not UTF-8 text: {exc}"))
        return None
    source.lines = FileLines(text)
    try:
        source.table = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        problems.append(Problem(ERROR, source.name, line, None, f"not valid TOML: {getattr(exc, 'msg', exc)}"))
        return None
    return source


def _check_file(source, problems) -> None:
    table = source.table
    rest = {k: v for k, v in table.items() if k not in ("imports", "pipeline")}
    _check_file_model(source, rest, ("policy_schema_version", "settings", "policy", "imports"), problems)
    settings = table.get("settings")
    if isinstance(settings, dict):
        if "eval_feedback" in settings:
            _check_eval_feedback(source, settings["eval_feedback"], problems)
            settings = {k: v for k, v in settings.items() if k != "eval_feedback"}
        try:
            schema.SettingsModel.model_validate(settings)
        except ValidationError as exc:
            for loc, message in explain(exc.errors(), schema.SettingsModel.model_fields):
                key = str(loc[0]) if loc else "settings"
                problems.append(Problem(ERROR, source.name, source.lines.top_key(key), None,
                                        "settings: " + message))  # fmt: skip


def _check_file_model(source, table, known, problems) -> None:
    try:
        schema.FileModel.model_validate(table)
    except ValidationError as exc:
        for loc, message in explain(exc.errors(), known):
            key = str(loc[0]) if loc else ""
            problems.append(Problem(ERROR, source.name, source.lines.top_key(key), None, message))


def _check_eval_feedback(source, table, problems) -> None:
    """``[settings.eval_feedback]``: the keys, and events on which context reaches the model."""
    name = "settings.eval_feedback"

    def report(message: str, key: str | None = None) -> None:
        line = source.lines.table_key(name, key)
        problems.append(Problem(ERROR, source.name, line, None, f"settings: {message}"))

    if not isinstance(table, dict):
        report("`eval_feedback` must be a table, such as [settings.eval_feedback] with enabled = true")
        return
    try:
        schema.EvalFeedbackModel.model_validate(table)
    except ValidationError as exc:
        for err in exc.errors():
            key = str(err["loc"][0]) if err["loc"] else None
            err = dict(err, loc=("eval_feedback",) + tuple(err["loc"]))
            report(_message(err, schema.EvalFeedbackModel.model_fields), key)
    events = table.get("events", ())
    for event in events if isinstance(events, list) else ():
        if not isinstance(event, str):
            continue  # reported by the model
        if event not in EVENTS:
            report(f'`eval_feedback.events`: unknown hook_event "{event}"{suggestion(event, EVENTS)}', "events")
        elif event not in CONTEXT_EVENTS:
            report(f'`eval_feedback.events`: Claude Code passes no context to the model on {event}'
                   f" (it can on {context_events()})", "events")  # fmt: skip
    folder = table.get("dir", "logs/evals")
    if isinstance(folder, str) and (not folder.strip() or "\x00" in folder):
        report("`eval_feedback.dir` must name a directory (relative to the project root)", "dir")


def _message(err, known=()) -> str:
    return explain([err], known)[0][1]


def _compile_policy(source, index: int, table, problems):
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
        schema.PolicyModel.model_validate(table)
    except ValidationError as exc:
        for loc, message in explain(exc.errors(), schema.PolicyModel.model_fields):
            if loc and loc[0] in ("conditions", "action") and (len(loc) > 1 or (loc[0] == "action" and "action" in table)):
                continue  # each condition and the action are checked below, with better words
            if loc == ("name",) and "name" not in table:
                message = "missing required key `name`: every policy needs a name, unique across all policy files"
            report(message, loc[0] if loc else None)
    if name is not None and not name.strip():
        report("`name` must not be empty", "name")
    event = table.get("hook_event", "PreToolUse")
    if isinstance(event, str) and event not in EVENTS:
        report(f'unknown hook_event "{event}"{suggestion(event, EVENTS)}', "hook_event")
    matcher = table.get("matcher")
    tools = _matcher(matcher, event, report)
    conditions = table.get("conditions", [])
    compiled_conditions = []
    if isinstance(conditions, list):
        for n, condition in enumerate(conditions):
            compiled_conditions.append(_condition(condition, _within(report, ("conditions", n)), source.root))
    action = _action(table.get("action"), event, report)
    if len(problems) > start and any(p.severity == ERROR for p in problems[start:]):
        return None
    return (name, event, tools, tuple(compiled_conditions), action, source.name, line)


def _matcher(matcher, event, report):
    """The tool filter: None (every tool), ("names", names) or ("regex", pattern)."""
    if matcher is None or not isinstance(matcher, str) or matcher in ("", "*"):
        return None
    if event not in TOOL_EVENTS:
        report(f'`matcher` has no effect: "{event}" has no tool (the policy applies to every {event})',
               "matcher", WARNING)  # fmt: skip
        return None
    if _NAME_LIST.fullmatch(matcher):
        return ("names", tuple(sorted(set(matcher.split("|")))))
    try:
        re.compile(matcher)
    except re.error as exc:
        report(f"invalid regex in `matcher`: {exc} (pattern {matcher!r})", "matcher")
        return None
    return ("regex", matcher)


def _regex(pattern, what: str, report):
    try:
        re.compile(pattern)
    except re.error as exc:
        report(f"invalid regex in {what}: {exc} (pattern {pattern!r})", "conditions")
        return None
    return pattern


def _condition(cond, report, root: str = ""):
    if not isinstance(cond, dict):
        report("each condition must be a table such as { type = \"command_regex\", value = \"…\" }", "conditions")
        return None
    if "type" not in cond:
        for combinator in schema.COMBINATORS:
            if combinator in cond:
                if len(cond) != 1:
                    report(f"a `{combinator}` condition holds nothing else", "conditions")
                    return None
                inner = cond[combinator]
                if combinator == "not":
                    return ("not", _condition(inner, _within(report, report.path + ("not",)), root))
                if not isinstance(inner, list) or not inner:
                    report("`any` takes a non-empty array of conditions", "conditions")
                    return None
                return ("any", tuple(_condition(c, _within(report, report.path + ("any", m)), root)
                                     for m, c in enumerate(inner)))  # fmt: skip
        report("a condition needs a `type` (or is `not = {…}` / `any = […]`)", "conditions")
        return None
    kind = cond["type"]
    if kind in schema.CONDITIONS_NOT_YET:
        report(f'condition type "{kind}" is not supported yet by this version of Cupcake', "conditions")
        return None
    if kind in schema.STATE_CONDITIONS:
        return compile_state_condition(cond, root, report)
    if kind not in schema.CONDITION_TYPES:
        report(f'unknown condition type "{kind}"{suggestion(kind, schema.CONDITION_TYPES + schema.COMBINATORS)}',
               "conditions")  # fmt: skip
        return None
    model = schema.FieldCondition if kind == "field" else schema.RegexCondition
    try:
        model.model_validate(cond)
    except ValidationError as exc:
        for loc, message in explain(exc.errors(), model.model_fields):
            report(f"condition {kind}: " + message, "conditions")
        return None
    if kind == "field":
        has_regex, has_equals = cond.get("regex") is not None, "equals" in cond
        if has_regex == has_equals:
            report("condition field: give exactly one of `regex` or `equals`", "conditions")
            return None
        path = tuple(cond["path"].split("."))
        if has_regex:
            pattern = _regex(cond["regex"], f"field {cond['path']}", report)
            return ("field", path, "regex", pattern, required_literals(pattern or ""))
        return ("field", path, "equals", cond["equals"], ())
    pattern = _regex(cond["value"], kind, report)
    return (kind, pattern, required_literals(pattern or ""))


def _within(report, path):
    """``report`` for one condition: "conditions" means the line of the condition at ``path``."""

    def at(message: str, key=None, severity: str = ERROR) -> None:
        report(message, path if key == "conditions" else key, severity)

    at.path = path
    return at


def _action(action, event, report):
    if not isinstance(action, dict):
        if action is not None:
            report("`action` must be a table such as { type = \"block_with_feedback\", … }", "action")
        return None
    kind = action.get("type")
    if kind == "run_command":
        return _run_command(action, report)
    if kind == "update_state":
        return compile_update_state(action, report)
    if kind in schema.ACTIONS_NOT_YET:
        report(f'action type "{kind}" is not supported yet by this version of Cupcake', ("action", "type"))
        return None
    model = schema.ACTION_MODELS.get(kind)
    if model is None:
        report(f'unknown action type "{kind}"{suggestion(kind, schema.ACTION_TYPES)}', ("action", "type"))
        return None
    try:
        model.model_validate(action)
    except ValidationError as exc:
        for loc, message in explain(exc.errors(), model.model_fields):
            report(f"action {kind}: " + message, ("action", str(loc[0])) if loc else "action")
        return None
    compiled = ACTION_KIND[kind]
    if isinstance(event, str) and event in EVENTS and not action_supported(compiled, event):
        if compiled == "context":
            report(f'"{kind}" cannot be honoured on {event}: Claude Code passes no context to the model there'
                   f" (it can on {context_events()})", ("action", "type"))  # fmt: skip
        else:
            report(f'"{kind}" cannot be honoured on {event}: Claude Code has no such answer for that event'
                   f"{_honoured_on(compiled)}", ("action", "type"))  # fmt: skip
        return None
    if compiled == "context":
        from cupcake.context.compile import compile_context

        return compile_context(action, report)
    text = {"soft": "message", "block": "feedback_message"}.get(compiled, "reason")
    return (compiled, action.get(text) or "")


def context_events() -> str:
    """The events that carry context, in the order of the event list: "PreToolUse, …"."""
    return ", ".join(e for e in EVENTS if e in CONTEXT_EVENTS)


def _honoured_on(kind: str) -> str:
    """`` (it works on PreToolUse and PermissionRequest)``: where an action kind can be used."""
    events = [e for e in EVENTS if action_supported(kind, e)]
    if not events or len(events) == len(EVENTS):
        return ""
    return f" (it works on {', '.join(events[:-1])} and {events[-1]})" if len(events) > 1 else f" (it works on {events[0]})"


def _run_command(action: dict, report):
    """("check", spec, on_failure, feedback template): a command whose failure blocks, becomes
    soft feedback, or is ignored (a side effect)."""
    from cupcake.commands import check_command_template

    ok = True
    for key in action:
        if key not in schema.RUN_COMMAND_KEYS:
            report(f"action run_command: unknown key `{key}`{suggestion(key, schema.RUN_COMMAND_KEYS)}", ("action", key))
            ok = False
    on_failure = action.get("on_failure", "block")
    if on_failure not in schema.ON_FAILURE:
        report(f'action run_command: `on_failure` must be "block", "feedback" or "ignore", got {on_failure!r}',
               ("action", "on_failure"))  # fmt: skip
        ok = False
    for problem in check_command_template(action):
        report(f"action run_command: {problem}", "action")
        ok = False
    if not ok:
        return None
    spec = {k: v for k, v in action.items() if k not in ("type", "on_failure", "on_failure_feedback")}
    return ("check", spec, on_failure, action.get("on_failure_feedback"))


def _patterns(conditions):
    for cond in conditions:
        if cond is None:
            continue
        if cond[0] in ("command_regex", "filepath_regex", "file_content_regex") and cond[1]:
            yield cond[1]
        elif cond[0] == "field" and cond[2] == "regex" and cond[3]:
            yield cond[3]
        elif cond[0] in schema.STATE_CONDITIONS:
            yield from (p for p in cond[1][3:5] if p)
        elif cond[0] == "not":
            yield from _patterns((cond[1],))
        elif cond[0] == "any":
            yield from _patterns(cond[1])


def _sre_forms(policies) -> dict:
    """Every pattern's compiled SRE program, so warm runs need no ``re`` import."""
    from cupcake.policy.sre_forms import sre_form

    forms = {}
    for _name, _event, tools, conditions, _action, _file, _line in policies:
        patterns = list(_patterns(conditions))
        if tools is not None and tools[0] == "regex":
            patterns.append(tools[1])
        for pattern in patterns:
            if pattern not in forms:
                form = sre_form(pattern)
                if form is not None:
                    forms[pattern] = form
    return forms


def _index(policies) -> dict:
    """Per event: policies by exact tool name, by tool regex, and for every tool."""
    index: dict = {}
    for i, (_name, event, tools, _conds, _action, _file, _line) in enumerate(policies):
        names, regexes, every = index.setdefault(event, ({}, [], []))
        if tools is None:
            every.append(i)
        elif tools[0] == "names":
            for tool in tools[1]:
                names.setdefault(tool, []).append(i)
        else:
            regexes.append((tools[1], required_literals(tools[1]), i))
    return {
        event: (
            {tool: tuple(ids) for tool, ids in names.items()},
            tuple(regexes),
            tuple(every),
        )
        for event, (names, regexes, every) in index.items()
    }


def _shadowed(policies):
    """Warn about hard actions (a block, an ask, a check that blocks) that an earlier unconditional
    approve on the same event always pre-empts: it covers every tool, or every tool they name."""
    found = []
    approvers: dict = {}  # event -> [(name, tools, "file:line")], in list order
    for name, event, tools, conds, action, file, line in policies:
        if action is None:
            continue
        hard = action[0] in ("block", "ask") or (action[0] == "check" and action[2] == "block")
        earlier = next((a for a in approvers.get(event, ()) if _covers(a[1], tools)), None) if hard else None
        if earlier:
            found.append(Problem(WARNING, file, line, name,
                                 f'never reached: "{earlier[0]}" ({earlier[2]}) approves these calls first'))  # fmt: skip
        if action[0] == "approve" and not conds:
            approvers.setdefault(event, []).append((name, tools, f"{file}:{line}"))
    return found


def _covers(approved, tools) -> bool:
    """Whether an approve's tool filter takes in every tool of ``tools`` (None: every tool)."""
    if approved is None or approved == tools:
        return True
    return tools is not None and approved[0] == tools[0] == "names" and set(tools[1]) <= set(approved[1])


# ## Composition: `imports` ######################################################################


class _Imported:
    """What the imports of every top-level file added up to: the cache's extra identities (each
    imported file and each directory a glob scanned) and the patterns self-protection guards."""

    def __init__(self):
        self.identities: list = []
        self.patterns: list = []


def _imported_sources(source, root: str, env, problems, imported: _Imported) -> list:
    """The files ``source``'s ``imports`` names, read and checked, in order (policies only)."""
    from cupcake.policy.cache import file_identity

    entries = source.table.get("imports")
    if entries is None:
        return []

    def at(entry):
        return source.lines.top(("imports", entry)) if entry is not None else source.lines.top_key("imports")

    def report(message: str, entry=None) -> None:
        problems.append(Problem(ERROR, source.name, at(entry), None, f"imports: {message}"))

    def warn(message: str, entry=None) -> None:
        problems.append(Problem(WARNING, source.name, at(entry), None, f"imports: {message}"))

    expansion = expand_imports(source.path, entries, report, warn)
    imported.patterns.extend(expansion.patterns)
    found = []
    imported.identities.extend(expansion.watched)  # each taken just before it was looked into
    for item in expansion.files:
        imported.identities.append(file_identity(item.path))  # before reading: a later change is seen
        child = _read(item.path, root, env, problems, imported_by=source.name)
        if child is not None:
            _check_imported_file(child, problems)
            found.append(child)
    return found


def _check_imported_file(source, problems) -> None:
    """An imported file holds policies only: settings and imports are read from the top-level files."""
    table = source.table
    for key, why in (
        ("settings", "settings are read only from cupcake.toml and ~/.claude/cupcake.toml"),
        ("imports", f"this file is imported by {source.imported_by}, and only cupcake.toml and "
                    "~/.claude/cupcake.toml may import, so imports never nest and never form a cycle"),
        ("pipeline", "pipeline systems are configured only in cupcake.toml and ~/.claude/cupcake.toml"),
    ):  # fmt: skip
        if key in table:
            line = source.lines.top_key(key) or _table_header(source.lines, key)
            problems.append(Problem(ERROR, source.name, line, None,
                                    f"`{key}` is not allowed in an imported file: {why}"))  # fmt: skip
    rest = {k: v for k, v in table.items() if k not in ("settings", "imports", "pipeline")}
    _check_file_model(source, rest, ("policy_schema_version", "policy"), problems)


def _table_header(lines, key: str):
    for number, text in enumerate(lines.lines, 1):
        stripped = text.strip()
        if stripped.startswith("[") and stripped.strip("[] ").split(".")[0].strip() == key:
            return number
    return None
