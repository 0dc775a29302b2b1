"""Evaluate compiled conditions (``re.search``) over an event view. The literals every match needs are
checked first (``view.patterns``, the run's regexes), so a pattern that cannot match is never
compiled, and a run where nothing can match never even imports ``re``."""

from __future__ import annotations

from cupcake import speedups
from cupcake.evaluate.command_match import holds as command_holds  # loaded by every run (feedback_collection)
from cupcake.evaluate.pack_prefilter import may_hold as pack_may_hold


def holds(cond, view) -> bool:
    kind = cond[0]
    if kind == "command":  # the most frequent first: some 150 on a Bash call with the packs
        return command_holds(cond, view)
    if kind == "command_regex":
        return view.patterns.search(cond[1], cond[2], view.command)
    if kind == "filepath_regex":
        return view.patterns.search(cond[1], cond[2], view.file_path)
    if kind == "file_content_regex":
        return any(view.patterns.search(cond[1], cond[2], text) for text in view.contents)
    if kind == "field":
        value = view.field(cond[1])
        if cond[2] == "equals":
            return value == cond[3] and type(value) is type(cond[3])
        if isinstance(value, (bool, int, float)):
            value = speedups.json_dumps(value)
        return view.patterns.search(cond[3], cond[4], value)
    if kind == "state_exists" or kind == "state_missing":
        from cupcake.evaluate.state_query import holds as state_holds

        return state_holds(cond, view.state)
    if kind in ("path", "secret", "sql", "hidden_code", "project_file"):
        if not pack_may_hold(cond, view):
            return False  # the Bash line cannot hold it: pack_match is not even loaded
        from cupcake.evaluate.pack_match import holds as pack_holds

        return pack_holds(cond, view)
    if kind == "not":
        return not holds(cond[1], view)
    if kind == "any":
        for inner in cond[1]:  # a loop, not any(generator): the packs' rules are 43 of them on a Bash call
            if holds(inner, view):
                return True
        return False
    raise ValueError(f"unknown condition {kind!r}")


def all_hold(conditions, view) -> bool:
    for cond in conditions:
        if not holds(cond, view):
            return False
    return True


def candidates(index: dict, event: str, tool_name, patterns, agent_tool=None, agent=None, only=None) -> list:
    """Indexes of the policies for ``event`` whose matcher accepts ``tool_name`` (the canonical name)
    or ``agent_tool`` (the agent's own name for it), in list order; with ``only`` (policy index ->
    the agents it is restricted to), those that apply to ``agent``."""
    entry = index.get(event)
    if entry is None:
        return []
    names, regexes, every = entry
    found = list(every)
    if tool_name is not None:
        _tool_matches(names, regexes, tool_name, found, patterns)
    if agent_tool is not None and agent_tool != tool_name and isinstance(agent_tool, str):
        more: list[int] = []
        _tool_matches(names, regexes, agent_tool, more, patterns)
        found.extend(i for i in more if i not in found)
    if only:
        found = [i for i in found if i not in only or agent in only[i]]
    found.sort()
    return found


def _tool_matches(names: dict, regexes, tool: str, found: list, patterns) -> None:
    found.extend(names.get(tool, ()))
    for pattern, literals, ids in regexes:
        if not all(lit in tool for lit in literals):
            continue
        plain = plain_fullmatch(pattern, tool)
        if plain if plain is not None else patterns.regex(pattern).fullmatch(tool):
            found.extend(ids)


_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def plain_fullmatch(pattern: str, tool: str):
    """``re.fullmatch(pattern, tool)`` for a matcher that is only names and ``prefix.*`` between ``|``
    (``Bash|Write|mcp__.*``, the packs' matchers), without compiling it; None for any other pattern.
    (``.`` does not match a newline.)"""
    result = False
    for alternative in pattern.split("|"):
        star = alternative.endswith(".*")
        name = alternative[:-2] if star else alternative
        if not name or not _WORD.issuperset(name):
            return None
        if star:
            if tool.startswith(name) and "\n" not in tool[len(name) :]:
                result = True
        elif tool == name:
            result = True
    return result


def event_candidates(compiled: dict, incoming, patterns) -> list:
    """``candidates`` for the canonical event ``incoming`` (``cupcake.agents.event.Event``): its tool by
    canonical and agent name, and only the policies that apply to its agent."""
    return candidates(
        compiled["index"],
        incoming.name,
        incoming.tool,
        patterns,
        incoming.agent_tool,
        incoming.agent,
        compiled.get("agents"),
    )
