"""The built-in packs' conditions, compiled, for the evaluation tests that check each of them."""

from __future__ import annotations

from cupcake import packs
from cupcake.compile.compile_conditions import ConditionReporter, compile_condition


def compiled_pack_conditions(kinds: tuple) -> list:
    """Every condition of the built-in packs whose kind is one of ``kinds``, compiled, nested ones
    (under ``any`` and ``not``) included. A condition of a pack that does not compile fails the test."""
    found: list = []

    def walk(cond):
        if cond[0] in kinds:
            found.append(cond)
        elif cond[0] == "any":
            for inner in cond[1]:
                walk(inner)
        elif cond[0] == "not":
            walk(cond[1])

    problems: list = []
    reporter = ConditionReporter(lambda message, *a, **k: problems.append(message), ())
    for name in packs.names():
        for rule in packs.load(name).rules:
            for cond in rule.get("conditions", []):
                compiled = compile_condition(cond, reporter, "/p")
                assert not problems, (name, problems)
                walk(compiled)
    return found
