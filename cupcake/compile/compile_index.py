"""What the compiler derives from the valid policies: the index by event and tool, the regexes' SRE
programs, and the warnings about blocks an earlier approve or ask can pre-empt (cold path)."""

from __future__ import annotations

from cupcake.compile.compile_conditions import patterns_in
from cupcake.compile.literals import required_literals
from cupcake.evaluate.compiled import Policy
from cupcake.problems import WARNING, Problem


def sre_forms_of(policies) -> dict:
    """Every pattern's compiled SRE program, so warm runs need no ``re`` import."""
    from cupcake.speedups import sre_form

    forms = {}
    for policy in map(Policy, policies):
        tools = policy.tools
        patterns = list(patterns_in(policy.conditions))
        if tools is not None and tools[0] == "regex":
            patterns.append(tools[1])
        for pattern in patterns:
            if pattern not in forms:
                form = sre_form(pattern)
                if form is not None:
                    forms[pattern] = form
    return forms


def build_index(policies) -> dict:
    """Per event: policies by exact tool name, by tool regex (``(regex, its literals, policies)``, one
    entry per regex: the packs' 60 regex matchers are 7 regexes), and for every tool."""
    index: dict = {}
    for i, policy in enumerate(map(Policy, policies)):
        tools = policy.tools
        names, regexes, every = index.setdefault(policy.event, ({}, {}, []))
        if tools is None:
            every.append(i)
        elif tools[0] == "names":
            for tool in tools[1]:
                names.setdefault(tool, []).append(i)
        else:
            regexes.setdefault(tools[1], []).append(i)
    return {
        event: (
            {tool: tuple(ids) for tool, ids in names.items()},
            tuple((regex, required_literals(regex), tuple(ids)) for regex, ids in regexes.items()),
            tuple(every),
        )
        for event, (names, regexes, every) in index.items()
    }


def shadowed_warnings(policies):
    """Warn about hard actions that an earlier approve or ask on the same event can pre-empt (the
    first hard action wins, in list order). "never reached" when an unconditional approve covers
    every tool they name; "can be pre-empted" when the earlier one's tools overlap theirs."""
    found = []
    approvers: dict = {}  # event -> [(name, tools, "file:line")], unconditional approves, in list order
    deciders: dict = {}  # event -> [(name, tools, "file:line", kind, position)], every approve and ask
    for position, policy in enumerate(map(Policy, policies), 1):
        name, event, tools, conds, file, line = (
            policy.name,
            policy.event,
            policy.tools,
            policy.conditions,
            policy.file,
            policy.line,
        )
        if policy[4] is None:
            continue
        action = policy.action
        hard = action.kind == "ask" or action.blocks
        earlier = next((a for a in approvers.get(event, ()) if _covers(a[1], tools)), None) if hard else None
        if earlier:
            found.append(
                Problem(
                    WARNING,
                    file,
                    line,
                    name,
                    f'never reached: "{earlier[0]}" ({earlier[2]}) approves these calls first',
                )
            )
        elif hard and action.kind != "ask":
            first = next((d for d in deciders.get(event, ()) if _overlap(d[1], tools)), None)
            if first:
                found.append(Problem(WARNING, file, line, name, _preempted(first, position, event, tools)))
        if action.kind == "approve" and not conds:
            approvers.setdefault(event, []).append((name, tools, f"{file}:{line}"))
        if action.kind in ("approve", "ask"):
            deciders.setdefault(event, []).append((name, tools, f"{file}:{line}", action.kind, position))
    return found


def _preempted(first, position: int, event: str, tools) -> str:
    name, _tools, where, kind, before = first
    if kind == "approve":
        outcome = "the call is allowed (skipping Claude Code's permission prompt)"
        verb = "approves"
    else:
        outcome = "the person is asked instead"
        verb = "asks about"
    what = "calls" if tools is None else "calls of " + ("|".join(tools[1]) if tools[0] == "names" else tools[1])
    return (
        f'can be pre-empted by "{name}" ({where}), which comes first (policy {before} of the evaluation order;'
        f" this one is {position}) and {verb} {event} {what} too: the first hard action wins, so where both"
        f' match {outcome} and this block never happens. Put this policy first, or narrow "{name}"'
    )


def _overlap(earlier, tools) -> bool:
    """Whether two tool filters can take in one same tool (None: every tool)."""
    if earlier is None or tools is None:
        return True
    return bool(_known(earlier) & _known(tools))


def _known(tools) -> set:
    """The tools a filter takes in: its names, or the known tool names its regex matches."""
    if tools[0] == "names":
        return set(tools[1])
    import re

    from cupcake.compile.tool_names import BUILTIN_TOOLS, MCP_SAMPLES

    pattern = re.compile(tools[1])
    return {t for t in BUILTIN_TOOLS + MCP_SAMPLES if pattern.fullmatch(t)}


def _covers(approved, tools) -> bool:
    """Whether an approve's tool filter takes in every tool of ``tools`` (None: every tool)."""
    if approved is None or approved == tools:
        return True
    return tools is not None and approved[0] == tools[0] == "names" and set(tools[1]) <= set(approved[1])


# ## Composition: `imports` ######################################################################
