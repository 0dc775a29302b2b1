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


def _gen(rng: random.Random, depth: int, alphabet: str = ALPHABET) -> tuple[str, str]:
    """A pattern and a string it matches."""
    pick = rng.randrange(9 if depth > 0 else 3)
    if pick == 0 or pick == 1:
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
        return re.escape(word), word
    if pick == 2:
        ch = rng.choice(alphabet)
        return f"[{ch}x]", ch
    if pick == 3:
        (a, sa), (b, sb) = _gen(rng, depth - 1, alphabet), _gen(rng, depth - 1, alphabet)
        return a + b, sa + sb
    if pick == 4 or pick == 5:
        alternatives = [_gen(rng, depth - 1, alphabet) for _ in range(rng.randint(2, 4))]
        chosen = rng.choice(alternatives)[1]
        group = rng.choice(["(", "(?:", "(?>"])
        return group + "|".join(a for a, _ in alternatives) + ")", chosen
    if pick == 6:
        inner, sample = _gen(rng, depth - 1, alphabet)
        return f"(?:{inner})?", rng.choice(["", sample])
    if pick == 7:
        inner, sample = _gen(rng, depth - 1, alphabet)
        return f"(?:{inner})+", sample * rng.randint(1, 2)
    inner, sample = _gen(rng, depth - 1, alphabet)
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
    "pattern, pieces",
    [
        (r"(?i)(sudo|doas)", (None, ("doas", "sudo"))),
        (r"(?x) (sudo | doas)", ()),
        (r"(a|bc)", (("a", "bc"),)),
        (r"(?i:sudo|doas)x", ("x",)),
        (r"x(?:^|[;&])", ("x",)),
        (r"(?i)Ab(?-i:CD)é", (None, "ab", "cd")),  # a literal that is not ASCII folds otherwise: left out
        (r"(?i)(é|x)y", (None, "y")),
        (r"\brm\s+-rf\s+/(?:\s|$)", ("-rf", "rm", "/")),  # one character filters too
    ],
)
def test_the_pieces_of_some_patterns(pattern, pieces):
    assert required_pieces(pattern) == pieces


# What (?i) matches to each letter of the generated patterns, beside its other case.
FOLDS = {"i": "I\u0130\u0131", "s": "S\u017f", "k": "K\u212a", "e": "E", "a": "A", "é": "É"}


def _varied(text: str, rng: random.Random) -> str:
    return "".join(rng.choice(FOLDS[ch] + ch) if ch in FOLDS and rng.random() < 0.6 else ch for ch in text)


@pytest.mark.parametrize("seed", range(4))
def test_a_text_a_case_blind_pattern_matches_is_never_skipped(seed):
    """``(?i)`` patterns: their pieces are looked for in the folded text, which must hold them whatever
    case, or (?i)'s other letters (İ, ı, ſ, the Kelvin sign), the match is spelled in."""
    rng = random.Random(seed)
    alphabet = "aiksé_-"
    matched = folded = 0
    for _ in range(1500):
        pattern, sample = _gen(rng, 4, alphabet)
        sample = _varied(sample, rng)
        if rng.random() < 0.3:
            exact, exact_sample = _gen(rng, 2, alphabet)
            pattern, sample = pattern + f"(?-i:{exact})", sample + exact_sample
        pattern = "(?i)" + pattern
        text = "".join(rng.choice(alphabet + " ") for _ in range(rng.randint(0, 4))) + sample
        if not re.search(pattern, text):
            continue
        matched += 1
        pieces = required_pieces(pattern)
        folded += bool(pieces)
        assert _check(pieces, text), (pattern, text, pieces)
    assert matched > 800 and folded > 400
