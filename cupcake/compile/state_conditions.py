"""Compile the state conditions (``state_exists``, ``state_missing``) and the ``update_state`` action
(cold path: pydantic and ``re`` are fine here).

A state condition compiles to ``(kind, filter, count, within)`` (see ``cupcake.stores.state.index`` for
the filter); its literal ``path`` is resolved against the project root now, exactly as a tool's
file path is when it is recorded, so ``path = "filexyz.md"`` means ``<root>/filexyz.md``."""

from __future__ import annotations

import os
import re

from pydantic_core import ValidationError

from cupcake.compile import schema
from cupcake.compile.messages import explain
from cupcake.project import shown_path

_DURATION = re.compile(r"(?:\d+(?:\.\d+)?[smhd])+")
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)([smhd])")
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_NAME = re.compile(r"[^|\s]+")


def _names(value: str, what: str, kind: str, report):
    """A name or several separated by ``|``: ("Edit", "Write")."""
    parts = value.split("|")
    if not all(_NAME.fullmatch(p) for p in parts):
        report(f'condition {kind}: `{what}` must be a name or names separated by "|", got {value!r}', "conditions")
        return None
    return tuple(sorted(set(parts)))


def duration(text) -> float | None:
    """Seconds in "30s", "10m", "1h30m", "2d"; None when it is not such a duration."""
    if not isinstance(text, str) or not _DURATION.fullmatch(text.strip()):
        return None
    return sum(float(n) * _UNIT[u] for n, u in _DURATION_PART.findall(text))


def _pattern(pattern, what: str, kind: str, report):
    try:
        re.compile(pattern)
    except re.error as exc:
        report(f"invalid regex in {kind} `{what}`: {exc} (pattern {pattern!r})", "conditions")
        return False
    return True


def compile_state_condition(cond: dict, root: str, report):
    """``(kind, filter, count, within)``, or None after reporting what is wrong."""
    kind = cond["type"]
    try:
        schema.StateCondition.validate(cond)
    except ValidationError as exc:
        for _loc, message in explain(exc.errors(), schema.StateCondition.keys):
            report(f"condition {kind}: " + message, "conditions")
        return None
    tool, event = cond.get("tool"), cond.get("event")
    ok = True
    if (tool is None) == (event is None):
        report(
            f'condition {kind}: give exactly one of `tool` (a tool use, e.g. "Read") or `event` '
            "(a custom event recorded by update_state)",
            "conditions",
        )
        ok = False
    within = None
    if cond.get("within") is not None:
        within = duration(cond["within"])
        if not within:
            report(
                f'condition {kind}: `within` must be a duration such as "30s", "10m", "2h" or "1d", '
                f"got {cond['within']!r}",
                "conditions",
            )
            ok = False
    if event is not None:
        for key in ("path", "path_regex", "command", "success"):
            if key in cond:
                report(f"condition {kind}: `{key}` describes a tool use; a custom event has none", "conditions")
                ok = False
    for key in ("path_regex", "command"):
        if cond.get(key) is not None and not _pattern(cond[key], key, kind, report):
            ok = False
    path = cond.get("path")
    if path is not None and (not path.strip() or "\0" in path):
        report(f"condition {kind}: `path` must be a file path", "conditions")
        ok = False
    names = None
    given = tool if tool is not None else event
    if given is not None:
        names = _names(given, "tool" if tool is not None else "event", kind, report)
    if not ok or names is None:
        return None
    count = cond.get("count", 1)
    if event is not None:
        return (kind, ("event", names, None, None, None, None), count, within)
    if path is not None:
        path = shown_path(path if os.path.isabs(path) else os.path.join(root, path), root)
    tool_key = ("tool", names, path, cond.get("path_regex"), cond.get("command"), cond.get("success", True))
    return (kind, tool_key, count, within)


def compile_update_state(action: dict, report):
    """``("state", event, data)``: a side effect that records a custom event."""
    try:
        schema.UpdateStateAction.validate(action)
    except ValidationError as exc:
        for loc, message in explain(exc.errors(), schema.UpdateStateAction.keys):
            report("action update_state: " + message, ("action", str(loc[0])) if loc else "action")
        return None
    event = action["event"]
    if not _NAME.fullmatch(event):
        report(f'action update_state: `event` must be a name without spaces or "|", got {event!r}', "action")
        return None
    data = action.get("data")
    problem = _not_json(data, "data") if data is not None else None
    if problem:
        report(f"action update_state: {problem}", "action")
        return None
    return ("state", event, data or None)


def _not_json(value, where: str):
    """What in ``value`` cannot be written as JSON (TOML dates and times), or None."""
    if isinstance(value, dict):
        for k, v in value.items():
            found = _not_json(v, f"{where}.{k}")
            if found:
                return found
        return None
    if isinstance(value, list):
        for i, v in enumerate(value):
            found = _not_json(v, f"{where}[{i}]")
            if found:
                return found
        return None
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return f"`{where}` is not a finite number"
    if isinstance(value, (str, int, float, bool)):
        return None
    return f"`{where}` is a {type(value).__name__}; write it as a string"


def state_conditions(conditions):
    """Every state condition among compiled ``conditions``, inside ``not`` and ``any`` too."""
    for cond in conditions:
        if cond is None:
            continue
        if cond[0] in schema.STATE_CONDITIONS:
            yield cond
        elif cond[0] == "not":
            yield from state_conditions((cond[1],))
        elif cond[0] == "any":
            yield from state_conditions(cond[1])


def state_plan(policies) -> tuple[dict, dict]:
    """(filters: how many latest times each keeps, events: the policies with state conditions per event).

    ``events`` is the flag a warm run checks before reading any state."""
    filters: dict = {}
    events: dict = {}
    from cupcake.evaluate.compiled import Policy

    for i, policy in enumerate(map(Policy, policies)):
        event = policy.event
        found = list(state_conditions(policy.conditions))
        if not found:
            continue
        events.setdefault(event, []).append(i)
        for _kind, key, count, within in found:
            kept = count if within is not None else 0
            filters[key] = max(filters.get(key, 0), kept)
    return filters, {event: tuple(ids) for event, ids in events.items()}
