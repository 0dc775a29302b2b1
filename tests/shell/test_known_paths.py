"""A write at a known path is compared with other paths as a string: the same answers as the pattern walk
over its characters (which a long line would otherwise pay for on every pair of commands)."""

from __future__ import annotations

import itertools
import random

import pytest

from cupcake.shell.model import Write
from cupcake.shell.words import Word, basename_tokens, match

# Letters whose case folds differently as one string than character by character, or to other letters.
LETTERS = ["a", "B", "ß", "İ", "Σ", "ς", "σ", "K", "k", "ſ", "s", "."]


def _could_be_walked(write, path: str, fold: bool) -> bool:
    """The pattern walk the string comparison stands for (``Write.could_be`` before it)."""
    fold = fold or write.fold
    if match(write.tokens, path, fold):
        return True
    if write.recursive:
        k = path.find("/", 1)
        while k > 0:
            if match(write.tokens, path[:k], fold):
                return True
            k = path.find("/", k + 1)
        if match(write.tokens, "/", fold):
            return True
    return False


def _paths(rng: random.Random, count: int) -> list[str]:
    out = ["/", "/a", "/a/b", "/A/B", "/a/b/c"]
    for _ in range(count):
        parts = ["".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 3))]
        out.append("/" + "/".join(parts))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_known_paths_compare_as_the_walk_does(seed):
    rng = random.Random(seed)
    targets, texts = _paths(rng, 40), _paths(rng, 40)
    texts += [t + "/" + x for t, x in itertools.product(targets[:20], ["x", "ß", "K"])]
    for target, recursive, own_fold in itertools.product(targets, (False, True), (False, True)):
        write = Write("writes", Word(target), "/p", recursive)
        write.fold = own_fold
        assert write.path is not None and write.tokens == list(write.path)
        for text, fold in itertools.product(texts, (False, True)):
            assert write.could_be(text, fold) == _could_be_walked(write, text, fold), (target, recursive, text, fold)
        for text in texts:
            name = text.rpartition("/")[2]
            walked = match(basename_tokens(write.tokens), name, write.fold)
            assert write.could_name(name) == walked, (target, own_fold, name)
