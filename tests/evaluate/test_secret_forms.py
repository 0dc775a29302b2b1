"""The key formats the scan searches in another form (``secret_patterns.SEARCH_FORMS``, started only at
a rare character) must match exactly the texts the detector's own pattern matches: compared on texts
built around every length at which the head, the middle and the tail stop or start to fit, with
characters just outside each class (other digits of Unicode, a dot, a colon, a line end) in between."""

from __future__ import annotations

import random
import re

import pytest

from cupcake.packs import secret_patterns

TELEGRAM = r"\d{8,10}:[0-9A-Za-z_-]{35}"
DISCORD = r"[MNO][a-zA-Z\d_-]{23,25}\.[a-zA-Z\d_-]{6}\.[a-zA-Z\d_-]{27}"

# Characters inside and just outside the classes the patterns use: digits of other scripts are
# digits to \d, a full stop and a colon end a token, a space and a line end end everything.
DIGITS = "0123456789٣५５"
TOKEN = "aZ9_-٣"
AROUND = ["", " ", "\n", ".", ":", "M", "N", "O", "x", "٣", "é", "-", "/", '"']


def _run(chars: str, n: int, rng: random.Random) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def _telegram_texts(rng: random.Random):
    for digits in range(6, 13):
        for tail in (33, 34, 35, 36, 40):
            for _ in range(12):
                yield (
                    rng.choice(AROUND)
                    + _run(DIGITS, digits, rng)
                    + rng.choice([":", ":", ";", "::", ".:"])
                    + _run(TOKEN if rng.random() < 0.25 else "aZ9_-", tail, rng)
                    + rng.choice(AROUND)
                )


def _discord_texts(rng: random.Random):
    for head in range(21, 28):
        for middle in (5, 6, 7):
            for tail in (26, 27, 28):
                for _ in range(30):
                    yield (
                        rng.choice(AROUND)
                        + rng.choice("MNOMNOPm.")
                        + _run(TOKEN, head, rng)
                        + rng.choice([".", ".", ".", ":", ".."])
                        + _run(TOKEN, middle, rng)
                        + rng.choice([".", ".", ".", "-"])
                        + _run(TOKEN, tail, rng)
                        + rng.choice(AROUND)
                    )


def _soup(rng: random.Random, count: int = 3000):
    """Random texts of the pieces above, in any order and amount (several candidates in one text)."""
    pieces = [*AROUND, "1234", "12345678", "M" + "a" * 23, "b" * 6, "c" * 27, "d" * 35, "." * 3, ":" * 2]
    for _ in range(count):
        yield "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 40)))


@pytest.mark.parametrize(("pattern", "texts"), [(TELEGRAM, _telegram_texts), (DISCORD, _discord_texts)])
def test_the_form_matches_exactly_where_the_detector_does(pattern, texts):
    form = secret_patterns.SEARCH_FORMS[pattern]
    original, fast = re.compile(pattern), re.compile(form)
    rng = random.Random(pattern)
    found = {True: 0, False: 0}
    cases = list(texts(rng)) + list(_soup(rng))
    # Several candidates in one text: a miss then a match, a match far into the text.
    cases += [a + b for a, b in zip(cases[::7], cases[3::11])] + ["x" * 5000 + c for c in cases[:50]]
    for text in cases:
        expected = original.search(text) is not None
        assert (fast.search(text) is not None) is expected, (pattern, text)
        found[expected] += 1
    assert found[True] > 50 and found[False] > 50  # both answers were really compared


def test_every_form_stands_for_a_detector_pattern():
    """A form whose detector changed its pattern would be dead data (and that detector searched as is)."""
    from detect_secrets.plugins import discord, telegram_token

    patterns = {
        rx.pattern
        for cls in (discord.DiscordBotTokenDetector, telegram_token.TelegramBotTokenDetector)
        for rx in cls.denylist
    }
    assert set(secret_patterns.SEARCH_FORMS) == patterns
    forms = {p for _t, p, _c in secret_patterns.key_patterns()}
    assert set(secret_patterns.SEARCH_FORMS.values()) <= forms
    assert not set(secret_patterns.SEARCH_FORMS) & forms


@pytest.mark.parametrize("pattern", [TELEGRAM, DISCORD])
def test_a_form_is_linear_on_hostile_text(pattern):
    """A text of 40,000 starting characters (each colon or dot is tried) costs a linear search."""
    import time

    fast = re.compile(secret_patterns.SEARCH_FORMS[pattern])
    n = 40_000
    texts = [":" * n, "." * n, "1" * n + ":" * n, ("12345678:" + "a" * 34 + " ") * (n // 44)]
    texts += [("M" + "a" * 24 + ".") * (n // 26), ("M" + "a" * 24 + ".bbbbbb.") * (n // 33), "M" * n + "." * n]
    for text in texts:
        start = time.process_time()
        fast.search(text)
        assert time.process_time() - start < 0.25, (pattern, text[:60])
