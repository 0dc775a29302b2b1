"""``model._normtokens`` cuts a pattern's literal start into components as one string: it must answer as
the component-by-component walk over every token does, on random patterns of characters, slashes,
dots and wildcards."""

from __future__ import annotations

import random

from cupcake.shell.model import _normtokens
from cupcake.shell.words import ANY, ONE, STAR, SUB


def _walk(tokens) -> list:
    """``normpath`` over the tokens one by one: what ``_normtokens`` must agree with."""
    comps: list = [[]]
    for tok in tokens:
        if tok == "/" and tok.__class__ is str:
            comps.append([])
        else:
            comps[-1].append(tok)
    absolute = not comps[0]
    out: list = []
    for comp in comps[1:] if absolute else comps:
        if not comp or comp == ["."]:
            continue
        if comp == [".", "."]:
            if out and out[-1] != [ANY]:
                out.pop()
            continue
        out.append(comp)
    result: list = []
    for k, comp in enumerate(out):
        if k or absolute:
            result.append("/")
        result.extend(comp)
    return result or ["/"]


def test_normtokens_answers_as_the_walk():
    rng = random.Random(29)
    wild = [ANY, STAR, ONE, SUB, (False, (("a", "b"),)), "."]
    for _ in range(50000):
        tokens = [rng.choice(wild) if rng.random() < 0.25 else rng.choice("ab./") for _ in range(rng.randint(0, 14))]
        assert _normtokens(tokens) == _walk(tokens), tokens


def test_a_known_directory_then_a_pattern():
    tokens = list("/home/u/project/src/../build/") + [ANY] + list(".o")
    assert _normtokens(tokens) == list("/home/u/project/build/") + [ANY] + list(".o")
    assert _normtokens(list("/a/") + [ANY] + list("/../../b")) == list("/a/") + [ANY] + list("/b")
