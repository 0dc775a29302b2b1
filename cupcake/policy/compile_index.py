"""What the compiler derives from the valid policies: the index by event and tool, the regexes' SRE
programs, and the warnings about blocks an earlier approve always pre-empts (cold path)."""

from __future__ import annotations

from cupcake.policy.compile_conditions import patterns_in
from cupcake.policy.literals import required_literals
from cupcake.policy.problems import WARNING, Problem


def sre_forms_of(policies) -> dict:
    """Every pattern's compiled SRE program, so warm runs need no ``re`` import."""
    from cupcake.speedups import sre_form

    forms = {}
    for _name, _event, tools, conditions, compile_action, _file, _line in policies:
        patterns = list(patterns_in(conditions))
        if tools is not None and tools[0] == "regex":
            patterns.append(tools[1])
        for pattern in patterns:
            if pattern not in forms:
                form = sre_form(pattern)
                if form is not None:
                    forms[pattern] = form
    return forms


def build_index(policies) -> dict:
    """Per event: policies by exact tool name, by tool regex, and for every tool."""
    index: dict = {}
    for i, (_name, event, tools, _conds, compile_action, _file, _line) in enumerate(policies):
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


def shadowed_warnings(policies):
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
            found.append(
                Problem(
                    WARNING,
                    file,
                    line,
                    name,
                    f'never reached: "{earlier[0]}" ({earlier[2]}) approves these calls first',
                )
            )
        if action[0] == "approve" and not conds:
            approvers.setdefault(event, []).append((name, tools, f"{file}:{line}"))
    return found


def _covers(approved, tools) -> bool:
    """Whether an approve's tool filter takes in every tool of ``tools`` (None: every tool)."""
    if approved is None or approved == tools:
        return True
    return tools is not None and approved[0] == tools[0] == "names" and set(tools[1]) <= set(approved[1])


# ## Composition: `imports` ######################################################################
