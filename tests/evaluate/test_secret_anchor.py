"""The secret scan tries a key pattern only where a match can start (a few characters before each
occurrence of a literal every match holds), instead of at every position of the text: the answer
must be the one a search of the whole text gives, whatever the text, and a text made to defeat it
must cost no more than that search."""

from __future__ import annotations

import random
import re

import pytest

from cupcake.compile.literals import anchor
from cupcake.evaluate.secret_scan import MAX_TRIES, anchored, folded
from cupcake.packs import secret_patterns

KEYS = [(t, p) for t, p, c in secret_patterns.key_patterns() if not c and anchor(p)]

# Patterns that stress the edges: look-behind and line anchors before the literal, a word boundary
# and a look-ahead after it, a lead of several widths, the literal repeated inside itself.
EDGES = [
    r"(?<=\W)AP[0-9]{2,}\b",
    r"(?:^|=)tok_[a-z]{4}$",
    r"(?m)^x{0,3}abab[0-9]+(?!\w)",
    r"\bq{2,5}-us[0-9]{1,2}",
    r"(?i)[a-z]{3}KEY=[a-f0-9]{8}",
    r"(?:r|s)k_live_[0-9a-zA-Z]{4}",
    r"[0-9a-z]{6}-us-us[0-9]?",
]


def _examples(literal: str) -> list[str]:
    """Pieces to build texts from: the literal in both cases, characters the patterns look at."""
    return [
        literal,
        literal.upper(),
        literal[:-1],
        literal + literal,
        literal[: len(literal) // 2 + 1] + literal,  # overlapping occurrences
        "a",
        "Z",
        "7",
        "f" * 8,
        "0123456789abcdef" * 3,
        "-",
        "_",
        ".",
        ":",
        "=",
        "/",
        '"',
        " ",
        "\n",
        "é",
        "\u017f",  # ſ, the Kelvin sign, dotless ı and dotted İ: (?i) takes them for s, k and i
        "\u212a",
        "\u0131",
        "\u0130",
        "AKC",
        "AP1",
        "eyJ",
        "sk_live_",
        "://",
    ]


def _texts(literal: str, rng: random.Random, count: int = 400):
    pieces = _examples(literal)
    yield ""
    yield literal
    for _ in range(count):
        size = rng.randrange(1, 30)
        yield "".join(rng.choice(pieces) for _ in range(size))


# Made-up keys in the formats the patterns look for (none is real).
SAMPLES = [
    " AKCp8" + "a1B2c3D4e5" * 2 + " ",
    '="AP6' + "xY7z" * 4 + '"',
    "AccountKey=" + "aB3+/=" * 15,
    "https://user:pass@example.com",
    "https://u-1:" + "ab12" * 16 + "@acct.cloudant.com",
    "http://u:" + "abcdefgh" * 3 + "@a-1.cloudant.com",
    "GR1348941" + "a_b-c" * 5,
    "glcbt-ab_" + "x" * 25,
    "glimt-" + "y" * 25,
    "glptt-" + "z" * 40,
    "glagent-" + "w" * 60,
    "gloas-" + "v" * 64,
    "eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl",
    "0123456789abcdef" * 2 + "-us12",
    "//registry.npmjs.org/:_authToken=npm_abc",
    "sk-" + "a" * 20 + "T3BlbkFJ" + "b" * 20,
    "-----BEGIN RSA PRIVATE KEY-----",
    "pypi-AgEIcHlwaS5vcmc" + "A" * 70,
    "SG." + "a" * 22 + "." + "b" * 43,
    "xoxb-123-456-abc",
    "HTTPS://hooks.slack.com/services/T0A1/B0B2/abc",
    "https://api.softlayer.com/soap/v3.1/" + "f" * 64,
    "sq0csp-" + "Q" * 43,
    "rk_live_" + "a1" * 12,
    "AC" + "0a" * 16,
    "SK" + "9z" * 16,
    " AP42 =tok_abcd",
    "xxabab123 qq-us1 abcKEY=deadbeef sk_live_a1B2 abcdef-us-us",
]


def _planted(literal: str, rng: random.Random, regex) -> list[str]:
    """Texts that hold a real match at the very start, the very end and in the middle."""
    found = [m.group(0) for m in map(regex.search, SAMPLES) if m is not None]
    for text in _texts(literal, rng, 2000):
        m = regex.search(text)
        if m is not None:
            found.append(m.group(0))
        if len(found) >= 5:
            break
    out = []
    for match in found:
        out += [match, match + " tail", "head " + match, "x" * 50 + match + "y" * 50, (match + ";") * 3]
    return out


def _same(regex, pattern: str, text: str) -> None:
    found = anchor(pattern)
    icase = bool(regex.flags & re.IGNORECASE)
    hay = folded(text) if icase else text
    assert anchored(regex, text, hay, found) is (regex.search(text) is not None), (pattern, text)


@pytest.mark.parametrize("pattern", [p for _t, p in KEYS] + EDGES)
def test_same_answer_as_the_whole_text(pattern):
    regex = re.compile(pattern)
    literal = anchor(pattern)[0]
    rng = random.Random(pattern)
    texts = list(_texts(literal, rng)) + _planted(literal, rng, regex)
    assert any(regex.search(t) for t in texts) or pattern.startswith("PuTTY")
    for text in texts:
        _same(regex, pattern, text)


def test_every_real_key_format_with_a_literal_is_anchored():
    """The patterns that cost most on a large text (a short literal, a long lead) are among them."""
    names = {t for t, _p in KEYS}
    assert {"Mailchimp Access Key", "Artifactory Credentials", "Stripe Access Key", "JSON Web Token"} <= names
    assert anchor(r"[0-9a-z]{32}-us[0-9]{1,2}") == ("-us", 32, 32)
    assert anchor(r"(?:\s|=|:|\"|^)AP[\dABCDEF][a-zA-Z0-9]{8,}(?:\s|\"|$)") == ("AP", 0, 1)


@pytest.mark.parametrize(
    "pattern",
    [
        r"(ghp|gho)_[A-Za-z0-9_]{36}",  # the literal only inside a group
        r"[a-z]+-us[0-9]",  # an unbounded lead
        r"[a-z]{65}-us",  # a lead longer than the scan tries
        r"\d{8,10}:[0-9A-Za-z_-]{35}",  # no literal of two characters
        r"(?i)ſk_live_[a-z]{4}",  # a case-insensitive literal that is not ASCII
    ],
)
def test_no_anchor_where_a_match_could_start_anywhere(pattern):
    assert anchor(pattern) == ()


class _Counting:
    def __init__(self, regex):
        self.regex, self.matches, self.searches = regex, 0, 0

    def match(self, text, pos):
        self.matches += 1
        return self.regex.match(text, pos)

    def search(self, text):
        self.searches += 1
        return self.regex.search(text)


@pytest.mark.parametrize(
    "text",
    [
        "-us" * 10_000,  # 10,000 overlapping leads
        ("a" * 32 + "-us") * 10_000,
        "-us" * 9_999 + "b" * 32 + "-us7",  # the one match at the very end
        "c" * 32 + "-us1" + "-us" * 9_999,  # at the very start
    ],
)
def test_ten_thousand_occurrences_cost_no_more_than_one_search(text):
    regex = _Counting(re.compile(r"[0-9a-z]{32}-us[0-9]{1,2}"))
    found = anchored(regex, text, text, ("-us", 32, 32))
    assert found is (re.search(r"[0-9a-z]{32}-us[0-9]{1,2}", text) is not None)
    assert regex.matches <= MAX_TRIES
    assert regex.searches <= 1
