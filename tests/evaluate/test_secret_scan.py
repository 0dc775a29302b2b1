"""The secret scan takes shortcuts (a literal checked before a pattern runs, a pattern tried only where
a match can start, the quoted strings found per kind of quote); whatever the text, its answer must be
the one the plain scan gives: every key pattern searched over the whole text (over the lines holding a
secret-sounding word, for those that need one), every keyword pattern over those lines, every quoted
string weighed. Compared here on texts built from real key formats, assignments and quoted strings,
in every case, and spelled with the letters that ``(?i)`` takes for ASCII ones (ſ, ı, İ, the Kelvin sign)."""

from __future__ import annotations

import random
import re

import pytest

from cupcake.compile.pack_conditions import compile_pack_condition, patterns_of
from cupcake.evaluate import secret_scan
from cupcake.evaluate.pack_prefilter import may_hold_secret
from cupcake.evaluate.patterns import Patterns
from cupcake.speedups import sre_form

PLAIN_QUOTED = "(['\"])([A-Za-z0-9+/=_\\-]{%d,})\\1" % secret_scan.MIN_ENTROPY_LENGTH
WORD = re.compile("(?i)" + "|".join(secret_scan._WORDS))


def _cond(kind: str):
    problems: list = []
    cond = compile_pack_condition({"type": "secret", "kinds": [kind]}, lambda text, where: problems.append(text))
    assert cond is not None and not problems, problems
    return cond


def _cached(cond) -> Patterns:
    """The patterns as a run has them: every program the policy cache holds for ``cond``."""
    return Patterns({p: sre_form(p) for p in patterns_of(cond)})


def _plain_lines(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if WORD.search(line))


def plain_find(cond, text: str, path: str):
    """The scan without shortcuts."""
    _kind, kinds, keys, code, config, entropy = cond
    text = secret_scan.bounded(text)
    lines = _plain_lines(text)
    if "key" in kinds:
        for secret_type, pattern, needs_context, _literals, _anchor, _fewest in keys:
            if needs_context:
                if lines and re.search(pattern, lines):
                    return "key", secret_type
            elif re.search(pattern, text):
                return "key", secret_type
    if "keyword" in kinds:
        name = path.rsplit("/", 1)[-1].lower()
        is_config = name.startswith(".env") or name.endswith(secret_scan._CONFIG_SUFFIXES)
        for pattern, group, _heads in config if is_config else code:
            for m in re.finditer(pattern, lines):
                if secret_scan._real(m.group(group)):
                    return "keyword", "a secret assigned in the code"
    if "entropy" in kinds:
        for m in re.finditer(PLAIN_QUOTED, text):
            value = m.group(2)
            if secret_scan._real(value):
                for charset, limit in entropy:
                    if all(c in charset for c in value) and secret_scan.shannon(value, charset) > limit:
                        return "entropy", "a high-entropy string"
    return None


# Made-up secrets in the formats the detectors look for (none is real), and text around them.
KEYS = [
    "AKIAQYLPMN5HHHFPZAM2",
    "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "xoxb-123-456-abc",
    "https://hooks.slack.com/services/T01ABCDEF/B01ABCDEF/abcdefghij",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "-----BEGIN RSA PRIVATE KEY-----",
    "123456789:" + "AbC_d-" * 6,
    "M" + "a1" * 12 + ".bbbbbb." + "c" * 27,
    "eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl",
    "0123456789abcdef" * 2 + "-us12",
    " AKCp8" + "a1B2c3D4e5" * 2 + " ",
    "https://api.softlayer.com/soap/v3.1/" + "f" * 64,
    "ibm_cloud_iam_api_key = '" + "a1B2c3D4e5" * 4 + "abcd'",
    'softlayer_api_key = "' + "ab12" * 16 + '"',
    "https://user:pass@example.com",
    "SG." + "a" * 22 + "." + "b" * 43,
    "AC" + "0a" * 16,
]
ASSIGNMENTS = [
    'password = "hunter2xyz"',
    "api_key: 'abcd1234XY'",
    'db_pass => "s3cr3tzz"',
    "secret='q1w2e3r4t5';",
    'contraseña = "abc12345"',
    '"val1234xyz" == db_password',
    "password: Xk8s!pq2Lm",
    "PRIVATE_KEY = `zz9yy8xx7`",
    'token = "abcdef123456"',
    "password = os.environ['DB']",
]
QUOTES = [
    '"' + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1" + '"',
    "'" + "0f3a9c7e1b5d2f8a6c4e0b9d7f1a3c5e" + "'",
    '"AbCdEfGhIjKlMnOpQrStUvWxYz012345"aB3dE5gH7jK9mN1pQ3sT5vX7zA9"',  # a closing quote opens the next
    "'aB3dE5gH7jK9mN1pQ3sT5v\"X7zA9cE1bB3dE5gH7jK9mN1'",
    '"aB3dE5gH7jK9mN1pQ3sT5v\'X7zA9cE1bB3dE5gH7jK9mN1"',
    '"changeme_changeme_changeme"',
]
NOISE = ["\n", " ", "x = 1\n", "é", "İ", "ſ", "K", "=", ":", '"', "'", ".", "key", "pass", "# the secret\n"]
# The letters (?i) matches for ASCII ones, beside the upper and lower case.
FOLDS = {"s": "ſ", "i": "ı", "I": "İ", "k": "\u212a", "K": "\u212a"}


def _spelled(piece: str, rng: random.Random) -> str:
    how = rng.random()
    if how < 0.5:
        return piece
    if how < 0.65:
        return piece.upper()
    if how < 0.75:
        return piece.swapcase()
    out = []
    for ch in piece:
        out.append(FOLDS[ch] if ch in FOLDS and rng.random() < 0.5 else ch)
    return "".join(out)


def _texts(seed: str, pieces: list, count: int = 600):
    rng = random.Random(seed)
    for piece in pieces:
        yield piece
        yield "line one\n" + piece + "\nline three"
    for _ in range(count):
        parts = []
        for _ in range(rng.randrange(1, 8)):
            parts.append(_spelled(rng.choice(pieces + NOISE), rng))
        yield "".join(parts)


@pytest.mark.parametrize(
    ("kind", "pieces", "paths"),
    [
        ("key", KEYS + ASSIGNMENTS, ["src/app.py"]),
        ("keyword", ASSIGNMENTS + KEYS, ["src/app.py", "deploy/.env.production", "conf/app.yaml"]),
        ("entropy", QUOTES + ASSIGNMENTS, ["src/app.py"]),
    ],
)
@pytest.mark.parametrize("short_text", [None, 0])
def test_the_scan_answers_as_the_plain_scan(kind, pieces, paths, short_text, monkeypatch):
    if short_text is not None:  # every text searched as a long one is: rarest characters first, literals' regexes
        monkeypatch.setattr(secret_scan, "DIRECT_BELOW", short_text)
        monkeypatch.setattr(secret_scan, "REGEX_FIND_FROM", short_text)
    cond = _cond(kind)
    cached, bare = _cached(cond), Patterns()  # literals found through their regexes, or with str.find
    answers: dict = {True: 0, False: 0, "skipped": 0}
    for text in _texts(kind, pieces):
        for path in paths:
            expected = plain_find(cond, text, path)
            assert secret_scan.find(cond, [text], cached, path) == expected, (kind, path, text)
            assert secret_scan.find(cond, [text], bare, path) == expected, (kind, path, text)
            answers[expected is not None] += 1
            could = may_hold_secret(cond, [text])  # the check made before the scanner is loaded
            assert could or expected is None, (kind, path, text)
            answers["skipped"] += not could
    assert answers[True] > 50 and answers[False] > 50 and answers["skipped"] > 10, answers


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("key", "https://hooks.slack.com/\u017fervices/T01ABCDEF/B01ABCDEF/abcdefghij"),  # ſ
        ("key", "XOXB-123-456-ABC"),
        ("keyword", 'pa\u017f\u017fword = "hunter2xyz"'),  # paſſword
        ("keyword", 'api_\u212aey = "abcd1234XY"'),  # the Kelvin sign
        ("keyword", 'PR\u0130VATE_KEY = "zz9yy8xx7"'),  # İ
        ("keyword", 'x = "\u0130\u0130"\npr\u0131v_key = "zz9yy8xx7"'),  # lines after an İ, then ı
    ],
)
def test_letters_that_case_insensitive_patterns_fold_are_found(kind, text):
    """Lower-casing alone missed these: ſ, ı and the Kelvin sign stay as they are, İ becomes two
    characters (and moved every later line's place)."""
    assert plain_find(_cond(kind), text, "src/app.py") is not None
    assert secret_scan.find(_cond(kind), [text], Patterns(), "src/app.py") is not None


def test_the_fold_is_the_one_the_regex_engine_makes():
    """Every character ``(?i)`` matches to an ASCII letter folds to that letter, one for one."""
    any_letter = re.compile("(?i)[a-z]")
    for code in range(0x80, 0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        ch = chr(code)
        folded = secret_scan.folded(ch)
        assert len(folded) == 1, hex(code)
        if any_letter.fullmatch(ch):
            letters = [a for a in "abcdefghijklmnopqrstuvwxyz" if re.fullmatch("(?i)" + a, ch)]
            assert letters == [folded], (hex(code), letters, folded)


def test_keyword_patterns_are_tried_only_where_a_name_starts():
    """What makes the keyword check cheap: each pattern gets the names its matches start with."""
    from cupcake.compile.literals import starts

    for _pattern, _group, heads in _cond("keyword")[3]:
        assert heads == () or {"password", "secret", "key", "api", "contrase"} <= set(heads)
    assert sum(bool(heads) for _p, _g, heads in _cond("keyword")[3]) >= 4
    assert starts(r"(?i)(ab_?c|Déf)x") == ("ab", "d")
    assert starts(r"(ab|cd)") == ("ab", "cd")
    assert starts(r"(?i)(?:k|key)=") == ("k",)
    # a match could start otherwise: an empty or unknown branch, a class, flags changed in a group
    for pattern in (r"(ab|)c", r"[ab]c", r"(?i:ab)c", r"a*b", r"(?i)ñx", r"(?<=x)ab", r"\bab"):
        assert starts(pattern) == (), pattern


@pytest.mark.parametrize("pattern", [p for p, _g, _h in _cond("keyword")[3] + _cond("keyword")[4]])
def test_the_matches_are_finditers(pattern):
    """Tried only where a name starts: the very matches ``finditer`` gives, in order."""
    cond = _cond("keyword")
    heads = next(h for p, _g, h in cond[3] + cond[4] if p == pattern)
    regex = re.compile(pattern)
    found = 0
    for text in _texts(pattern, ASSIGNMENTS + ['password = "a"password = "b"', "secretsecret = 'x1y2z3'"], 400):
        hay = secret_scan.folded(text) if pattern.startswith("(?i") else text
        expected = [m.span() for m in regex.finditer(text)]
        assert [m.span() for m in secret_scan.matches(regex, text, hay, heads)] == expected, text
        found += bool(expected)
    assert found > 30


def test_a_text_made_of_names_costs_one_finditer():
    class Counting:
        def __init__(self, regex):
            self.regex, self.tries, self.finditers = regex, 0, 0

        def match(self, text, pos):
            self.tries += 1
            return self.regex.match(text, pos)

        def finditer(self, text):
            self.finditers += 1
            return self.regex.finditer(text)

    pattern, _group, heads = next(k for k in _cond("keyword")[3] if k[2])
    for text in ("key" * 10_000, "password " * 10_000 + 'password = "hunter2xyz"'):
        counting = Counting(re.compile(pattern))
        got = [m.span() for m in secret_scan.matches(counting, text, text, heads)]
        assert got == [m.span() for m in re.finditer(pattern, text)]
        assert counting.tries <= secret_scan.MAX_TRIES and counting.finditers <= 1


def test_a_literal_regex_finds_the_literal_and_nothing_else():
    cond = _cond("key")
    literals = {lit for _t, _p, _c, lits, _a, _f in cond[2] for lit in lits} | set(secret_scan._WORDS)
    literals |= {"a.b", "x*y", "1\\2", "[q]", "(?i)", "$^", "{2}", "a|b", "\\1", " - ", "é.", "\n."}
    texts = ["", "a.b", "axb", "x*y", "xxy", "1\\2", "[q]", "q", "(?i)", "$^", "{2}", "a|b", "ab", "\\1", " - "]
    for literal in literals:
        regex = re.compile(secret_scan.literal_pattern(literal))
        for text in texts + [literal, "z" + literal + "z", literal[:-1], literal.upper()]:
            assert (regex.search(text) is not None) is (literal in text), (literal, text)
    assert all(p in patterns_of(cond) for p in secret_scan.literal_patterns(cond))
    assert len(secret_scan.literal_patterns(cond)) > 20
