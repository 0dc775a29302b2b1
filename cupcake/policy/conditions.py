"""Evaluate compiled conditions (``re.search``). The literals every match needs are checked
first, so a pattern that cannot match is never compiled, and a run where nothing can match
never even imports ``re``."""

from __future__ import annotations

from cupcake import speedups
from cupcake.speedups import compile_pattern

_compiled: dict = {}
_forms: dict = {}  # pattern -> its cached SRE program (see sre_forms)


def use_forms(forms: dict) -> None:
    """The compiled policy set's SRE programs, so that patterns need no ``re`` import."""
    global _forms
    _forms = forms or {}


def _rx(pattern: str):
    rx = _compiled.get(pattern)
    if rx is None:
        rx = _compiled[pattern] = compile_pattern(pattern, _forms)
    return rx


def regex(pattern: str):
    """The compiled pattern, from its cached SRE program when the policy set has one."""
    return _rx(pattern)


def _search(pattern: str, literals: tuple, text) -> bool:
    if not isinstance(text, str):
        return False
    for literal in literals:
        if literal not in text:
            return False
    return _rx(pattern).search(text) is not None


def holds(cond, view) -> bool:
    kind = cond[0]
    if kind == "command_regex":
        return _search(cond[1], cond[2], view.command)
    if kind == "command":
        from cupcake.policy.command_match import holds as command_holds

        return command_holds(cond, view)
    if kind == "filepath_regex":
        return _search(cond[1], cond[2], view.file_path)
    if kind == "file_content_regex":
        return any(_search(cond[1], cond[2], text) for text in view.contents)
    if kind == "field":
        value = view.field(cond[1])
        if cond[2] == "equals":
            return value == cond[3] and type(value) is type(cond[3])
        if isinstance(value, (bool, int, float)):
            value = speedups.json_dumps(value)
        return _search(cond[3], cond[4], value)
    if kind == "state_exists" or kind == "state_missing":
        from cupcake.stores.state.query import holds as state_holds

        return state_holds(cond, view.state)
    if kind == "not":
        return not holds(cond[1], view)
    if kind == "any":
        return any(holds(c, view) for c in cond[1])
    raise ValueError(f"unknown condition {kind!r}")


def all_hold(conditions, view) -> bool:
    for cond in conditions:
        if not holds(cond, view):
            return False
    return True


def candidates(index: dict, event: str, tool_name) -> list:
    """Indexes of the policies for ``event`` whose matcher accepts ``tool_name``, in list order."""
    entry = index.get(event)
    if entry is None:
        return []
    names, regexes, every = entry
    found = list(every)
    if tool_name is not None:
        found.extend(names.get(tool_name, ()))
        for pattern, literals, i in regexes:
            if all(lit in tool_name for lit in literals) and _rx(pattern).fullmatch(tool_name):
                found.append(i)
    found.sort()
    return found
