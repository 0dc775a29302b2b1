"""Compiling a policy's matcher and conditions into the plain tuples a warm run evaluates (cold path)."""

from __future__ import annotations

import re

from pydantic_core import ValidationError

from cupcake.agents import catalog
from cupcake.compile import schema
from cupcake.compile.literals import required_pieces
from cupcake.compile.messages import explain
from cupcake.compile.state_conditions import compile_state_condition
from cupcake.problems import ERROR, WARNING, suggestion

_NAME_LIST = re.compile(r"[A-Za-z0-9_-]+(\|[A-Za-z0-9_-]+)*")


def compile_matcher(matcher, event, report):
    """The tool filter: None (every tool), ("names", names) or ("regex", pattern)."""
    if matcher is None or not isinstance(matcher, str) or matcher in ("", "*"):
        return None
    if event not in catalog.tool_events():
        if event not in catalog.events():
            return None  # the unknown event is the error: a word about the matcher would only mislead
        report(
            f'`matcher` has no effect: "{event}" has no tool (the policy applies to every {event})', "matcher", WARNING
        )
        return None
    from cupcake.compile.tool_names import matcher_warning

    unmatched = matcher_warning(matcher)
    if unmatched:
        report(unmatched, "matcher", WARNING)
    if _NAME_LIST.fullmatch(matcher):
        return ("names", tuple(sorted(set(matcher.split("|")))))
    try:
        re.compile(matcher)
    except re.error as exc:
        report(f"invalid regex in `matcher`: {exc} (pattern {matcher!r})", "matcher")
        return None
    return ("regex", matcher)


def checked_regex(pattern, what: str, report):
    try:
        re.compile(pattern)
    except re.error as exc:
        report(f"invalid regex in {what}: {exc} (pattern {pattern!r})", "conditions")
        return None
    return pattern


def compile_condition(cond, report: ConditionReporter, root: str = ""):
    if not isinstance(cond, dict):
        report('each condition must be a table such as { type = "command_regex", value = "…" }', "conditions")
        return None
    if "type" not in cond:
        for combinator in schema.COMBINATORS:
            if combinator in cond:
                if len(cond) != 1:
                    report(f"a `{combinator}` condition holds nothing else", "conditions")
                    return None
                inner = cond[combinator]
                if combinator == "not":
                    return ("not", compile_condition(inner, report.inner("not"), root))
                if not isinstance(inner, list) or not inner:
                    report("`any` takes a non-empty array of conditions", "conditions")
                    return None
                return (
                    "any",
                    tuple(compile_condition(c, report.inner("any", m), root) for m, c in enumerate(inner)),
                )
        report("a condition needs a `type` (or is `not = {…}` / `any = […]`)", "conditions")
        return None
    kind = cond["type"]
    if kind in schema.STATE_CONDITIONS:
        return compile_state_condition(cond, root, report)
    if kind == "command":
        from cupcake.compile.command_condition import compile_command_condition

        return compile_command_condition(cond, report, checked_regex)
    if kind in schema.PACK_CONDITIONS:
        from cupcake.compile.pack_conditions import compile_pack_condition

        return compile_pack_condition(cond, report)
    if kind not in schema.CONDITION_TYPES:
        report(
            f'unknown condition type "{kind}"{suggestion(kind, schema.CONDITION_TYPES + schema.COMBINATORS)}',
            "conditions",
        )
        return None
    table = schema.FieldCondition if kind == "field" else schema.RegexCondition
    try:
        table.validate(cond)
    except ValidationError as exc:
        for loc, message in explain(exc.errors(), table.keys):
            report(f"condition {kind}: " + message, "conditions")
        return None
    if kind == "field":
        has_regex, has_equals = cond.get("regex") is not None, "equals" in cond
        if has_regex == has_equals:
            report("condition field: give exactly one of `regex` or `equals`", "conditions")
            return None
        path = tuple(cond["path"].split("."))
        if has_regex:
            pattern = checked_regex(cond["regex"], f"field {cond['path']}", report)
            return ("field", path, "regex", pattern, required_pieces(pattern or ""))
        return ("field", path, "equals", cond["equals"], ())
    pattern = checked_regex(cond["value"], kind, report)
    return (kind, pattern, required_pieces(pattern or ""))


class ConditionReporter:
    """``report`` for one condition: "conditions" means the line of the condition at ``path``."""

    __slots__ = ("report", "path")

    def __init__(self, report, path: tuple) -> None:
        self.report = report
        self.path = path

    def __call__(self, message: str, key=None, severity: str = ERROR) -> None:
        self.report(message, self.path if key == "conditions" else key, severity)

    def inner(self, *where) -> ConditionReporter:
        """The reporter of a condition inside this one (``not``, or the ``any`` at an index)."""
        return ConditionReporter(self, self.path + where)


def patterns_in(conditions):
    for cond in conditions:
        if cond is None:
            continue
        if cond[0] in ("command_regex", "filepath_regex", "file_content_regex") and cond[1]:
            yield cond[1]
        elif cond[0] == "command":
            from cupcake.compile.command_condition import patterns_of

            yield from patterns_of(cond)
        elif cond[0] in schema.PACK_CONDITIONS:
            from cupcake.compile.pack_conditions import patterns_of as pack_patterns

            yield from pack_patterns(cond)
        elif cond[0] == "field" and cond[2] == "regex" and cond[3]:
            yield cond[3]
        elif cond[0] in schema.STATE_CONDITIONS:
            yield from (p for p in cond[1][3:5] if p)
        elif cond[0] == "not":
            yield from patterns_in((cond[1],))
        elif cond[0] == "any":
            yield from patterns_in(cond[1])
