"""``words.match`` decides by comparing a pattern's literal start (and end) as strings before walking it:
the shortcut must answer exactly as the plain walk does, for every pattern, text, ``fold`` and ``prefix``."""

from __future__ import annotations

import random

from cupcake.shell import words
from cupcake.shell.words import ANY, ONE, STAR, SUB, match


def _walk(tokens, text: str, fold: bool = False, prefix: bool = False) -> bool:
    """The matcher's walk alone (no literal shortcut): what ``match`` must agree with."""
    if fold:
        text = text.lower()
    n = len(text)
    reach = [False] * (n + 1)
    reach[0] = True
    for tok in tokens:
        nxt = [False] * (n + 1)
        any_reach = False
        if tok.__class__ is str:
            if fold:
                tok = tok.lower()
            for i in range(n):
                if reach[i] and text[i] == tok:
                    nxt[i + 1] = any_reach = True
        elif tok == STAR:
            on = False
            for i in range(n + 1):
                if reach[i]:
                    on = True
                if on:
                    nxt[i] = any_reach = True
                    if i < n and text[i] == "/":
                        on = False
        elif tok == ANY or tok == SUB:
            for i in range(n + 1):
                if reach[i]:
                    for j in range(i, n + 1):
                        nxt[j] = True
                    any_reach = True
                    break
        elif tok == ONE:
            for i in range(n):
                if reach[i] and text[i] != "/":
                    nxt[i + 1] = any_reach = True
        else:
            for i in range(n):
                if reach[i] and text[i] != "/" and words._in_class(tok, text[i], fold):
                    nxt[i + 1] = any_reach = True
        if not any_reach:
            return False
        reach = nxt
        if prefix and reach[n]:
            return True
    return reach[n]


_CHARS = "ab/.A"  # (a character that lowers to two, "İ", never matches a folded walk: the shortcut may say it could)
_CLASS = (False, (("a", "b"),))


def _token(rng: random.Random):
    pick = rng.random()
    if pick < 0.7:
        return rng.choice(_CHARS)
    return rng.choice((STAR, ONE, ANY, SUB, _CLASS))


def test_the_shortcuts_answer_as_the_walk_does():
    rng = random.Random(29)
    checked = 0
    for _ in range(20000):
        tokens = [_token(rng) for _ in range(rng.randint(0, 7))]
        if rng.random() < 0.5:  # texts that share the pattern's literal start, so the walk goes on
            text = "".join(t if t.__class__ is str else rng.choice(_CHARS) for t in tokens)
            text = text[: rng.randint(0, len(text))] + "".join(rng.choice(_CHARS) for _ in range(rng.randint(0, 3)))
        else:
            text = "".join(rng.choice(_CHARS) for _ in range(rng.randint(0, 7)))
        for fold in (False, True):
            for prefix in (False, True):
                assert match(tokens, text, fold, prefix) == _walk(tokens, text, fold, prefix), (
                    tokens,
                    text,
                    fold,
                    prefix,
                )
                checked += 1
            # the literal ends worked out once (``Write.could_be`` matches one pattern against many paths)
            for prefix in (False, True):
                assert match(tokens, text, fold, prefix, words.literal_ends(tokens)) == _walk(
                    tokens, text, fold, prefix
                ), (
                    tokens,
                    text,
                    fold,
                    prefix,
                )
    assert checked == 80000


def test_a_prefix_of_a_long_known_path_is_decided_without_the_walk():
    path = list("/home/u/project/src/") + [ANY] + list(".c")
    assert match(path, "/home/u/.claude/projects/", prefix=True) is False
    assert match(path, "/home/u/project/", prefix=True) is True
    assert match(path, "/home/u/project/src/x/y/", prefix=True) is True
    assert match(path, "", prefix=True) is False
