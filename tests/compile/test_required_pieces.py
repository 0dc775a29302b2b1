"""The pieces a regex condition's matches need (``compile.literals.required_pieces``): a run skips the
pattern when a required literal is missing, or none of an alternation's literals is there. Sound means:
whenever ``re.search`` finds a match, the check lets the pattern through. Checked on generated patterns,
each with a text it matches, and on the pack and bench patterns."""

from __future__ import annotations

import random
import re

import pytest

from cupcake.compile.literals import required_pieces
from cupcake.evaluate.patterns import Patterns

ALPHABET = "abcsudo_-"


def _gen(rng: random.Random, depth: int) -> tuple[str, str]:
    """A pattern and a string it matches."""
    pick = rng.randrange(9 if depth > 0 else 3)
    if pick == 0 or pick == 1:
        word = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 4)))
        return re.escape(word), word
    if pick == 2:
        ch = rng.choice(ALPHABET)
        return f"[{ch}x]", ch
    if pick == 3:
        (a, sa), (b, sb) = _gen(rng, depth - 1), _gen(rng, depth - 1)
        return a + b, sa + sb
    if pick == 4 or pick == 5:
        alternatives = [_gen(rng, depth - 1) for _ in range(rng.randint(2, 4))]
        chosen = rng.choice(alternatives)[1]
        group = rng.choice(["(", "(?:", "(?>"])
        return group + "|".join(a for a, _ in alternatives) + ")", chosen
    if pick == 6:
        inner, sample = _gen(rng, depth - 1)
        return f"(?:{inner})?", rng.choice(["", sample])
    if pick == 7:
        inner, sample = _gen(rng, depth - 1)
        return f"(?:{inner})+", sample * rng.randint(1, 2)
    inner, sample = _gen(rng, depth - 1)
    return f"(?:{inner})*", rng.choice(["", sample])


def _check(pieces: tuple, text: str) -> bool:
    """The run's check, as ``Patterns.search`` makes it before compiling (without compiling)."""

    class _Never:
        def search(self, _text):
            return True

    patterns = Patterns.__new__(Patterns)
    patterns.compiled = {"p": _Never()}
    return patterns.search("p", pieces, text)


@pytest.mark.parametrize("seed", range(6))
def test_a_text_a_pattern_matches_is_never_skipped(seed):
    rng = random.Random(seed)
    with_sets = matched = 0
    for _ in range(1500):
        pattern, sample = _gen(rng, 4)
        text = "".join(rng.choice(ALPHABET + " ") for _ in range(rng.randint(0, 6)))
        text = text + sample + "".join(rng.choice(ALPHABET + " ") for _ in range(rng.randint(0, 6)))
        if not re.search(pattern, text):  # an atomic group may commit to another branch than the sample's
            continue
        matched += 1
        pieces = required_pieces(pattern)
        with_sets += any(p.__class__ is tuple for p in pieces)
        assert _check(pieces, text), (pattern, text, pieces)
    assert matched > 1000 and with_sets > 5  # the texts match, and alternations give tuples


def test_a_text_without_any_of_an_alternations_literals_is_skipped():
    pieces = required_pieces(r"(^|[;&|({]\s*)(sudo|doas|su|pkexec|run0)(\s|$)")
    assert pieces == (("doas", "pkexec", "run0", "su", "sudo"),)
    assert not _check(pieces, "ls -la")
    assert _check(pieces, "echo x; doas rm y")


@pytest.mark.parametrize(
    "pattern",
    [r"(?i)(sudo|doas)", r"(?x) (sudo | doas)", r"(a|bc)", r"(?i:sudo|doas)x", r"x(?:^|[;&])"],
)
def test_no_tuple_where_a_branch_has_no_literal_or_case_is_folded(pattern):
    assert not any(p.__class__ is tuple for p in required_pieces(pattern))
