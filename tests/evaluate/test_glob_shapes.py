"""A glob's regex matched by its shape (``compile.glob_shapes``, ``evaluate.glob_match``) answers exactly as
``re.match`` does: on generated patterns (plain ones of every gap, and others the recogniser must leave to
the regex) against every short text over letters, slashes, newlines and a non-ASCII letter, and on the
packs' own globs. The same comparison catches deliberately wrong matchers, so it can fail."""

from __future__ import annotations

import fnmatch
import itertools
import random
import re
import tomllib
from pathlib import Path

import cupcake.packs
from cupcake.compile.glob_shapes import regexes, shape
from cupcake.compile.pack_conditions import by_form, glob_form
from cupcake.evaluate.glob_match import any_fits
from cupcake.evaluate.patterns import Patterns

_LETTERS = ["a", "b", "/", "\n", "é"]
TEXTS = ["".join(t) for n in range(5) for t in itertools.product(_LETTERS, repeat=n)]
TEXTS += ["a.b", "*", "a*b", "ab\n", "\nab", "é/é", "a\u017fb", "A", "AB"]

_LITERALS = ["", "", "a", "b", "ab", "ba", "/", "\n", "é", "a/", "/b", "\\.", "\\*"]
_GAPS = [".*", ".*?", "(?s:.*)", "(?-s:.*)", "[^/]*", "[^\\n]*", "[^a]*", "[^é]*", "[^/]*?"]
_NOT_PLAIN = [".+", "[ab]", "a|b", "(?:.*/)?", "a?", "\\w*", ".*+", "(?>.*)", "a{2}", "[^ab]*", "\\s*"]
_ENDS = ["\\Z"] * 8 + ["$", "", "\\Z\\Z"]
_WRAPS = ["{}"] * 4 + ["(?:{})", "({})", "(?s:{})", "(?i:{})", "(?-s:{})"]


def _pattern(rng: random.Random) -> str:
    head, tail = rng.choice(_LITERALS), rng.choice(_LITERALS)
    gaps = [rng.choice(_GAPS) for _ in range(rng.choice([0, 1, 1, 1, 1, 2]))]
    if rng.random() < 0.1:
        gaps.append(rng.choice(_NOT_PLAIN))
    body = head + tail.join(gaps) if len(gaps) > 1 else head + "".join(gaps) + tail
    body = rng.choice(_WRAPS).format(body)
    flags = rng.choice([""] * 6 + ["(?s)", "(?i)", "(?x)"])
    return flags + body + rng.choice(_ENDS)


def _patterns() -> list:
    rng = random.Random(29)
    found = {_pattern(rng) for _ in range(1500)}
    return sorted(found)


PATTERNS = _patterns()


def _disagreements(shape_of, fits, patterns=PATTERNS) -> list:
    found = []
    run = Patterns()
    for pattern in patterns:
        rx = re.compile(pattern)
        got = shape_of(pattern)
        for text in TEXTS:
            if fits((got,), text, run) != (rx.match(text) is not None):
                found.append((pattern, got, text))
    return found


def test_shapes_answer_as_re_match_on_generated_patterns_and_texts():
    assert _disagreements(shape, any_fits) == []


def test_the_generated_patterns_hold_every_kind_of_shape():
    kinds: dict = {}
    for pattern in PATTERNS:
        found = shape(pattern)
        key = None if found.__class__ is str else found[2] if len(found) == 3 else "regex"
        kinds[key] = kinds.get(key, 0) + 1
    assert set(kinds) == {None, "", "\n", "/", "a", "é", "regex"}, kinds
    assert min(kinds.values()) >= 20, kinds
    assert sum(kinds.values()) - kinds["regex"] >= 600, kinds


def _kind(found) -> str:
    return "literal" if found.__class__ is str else "gap" if len(found) == 3 else "regex"


def _without_overlap_check(shapes, text, patterns):
    if _kind(shapes[0]) == "gap":
        head, tail, gap = shapes[0]
        return (
            text.startswith(head)
            and text.endswith(tail)
            and (not gap or gap not in text[len(head) : -len(tail) or None])
        )
    return any_fits(shapes, text, patterns)


def _gap_holds_anything(shapes, text, patterns):
    if _kind(shapes[0]) == "gap":
        return any_fits(((shapes[0][0], shapes[0][1], ""),), text, patterns)
    return any_fits(shapes, text, patterns)


def _dotall_ignored(pattern):
    found = shape(pattern)
    return (found[0], found[1], "") if _kind(found) == "gap" and found[2] == "\n" else found


def _literal_as_prefix(shapes, text, patterns):
    if _kind(shapes[0]) == "literal":
        return text.startswith(shapes[0])
    return any_fits(shapes, text, patterns)


def _end_ignored(pattern):
    return shape(pattern[:-1] + "\\Z" if pattern.endswith("$") else pattern)


def test_a_wrong_matcher_or_recogniser_is_caught():
    some = PATTERNS[::4]
    assert _disagreements(shape, _without_overlap_check, some)
    assert _disagreements(shape, _gap_holds_anything, some)
    assert _disagreements(_dotall_ignored, any_fits, some)
    assert _disagreements(shape, _literal_as_prefix, some)
    assert _disagreements(_end_ignored, any_fits, some)


def test_a_pattern_that_is_not_plain_keeps_its_regex_and_the_literals_it_needs():
    assert shape(r"(?s:.*/)?\.ssh/id_[^/]*\Z") == (r"(?s:.*/)?\.ssh/id_[^/]*\Z", (".ssh/id_",))
    assert shape(r"(?i)\.env\Z") == (r"(?i)\.env\Z", (None, ".env"))  # looked for in the folded text
    assert shape("a[") == ("a[", ())  # not a regex at all: left to the run, which fails as before
    assert shape(r"(?s:\.git)\Z") == ".git" and shape(r"[^/]*\.pem\Z") == ("", ".pem", "/")
    assert regexes([shape(r"[^/]*\.pem\Z"), shape(r"a.+\Z")]) == [r"a.+\Z"]


def _pack_globs() -> tuple[set, set]:
    paths: set = set()
    args: set = set()

    def walk(node):
        if isinstance(node, dict):
            if node.get("type") in ("path", "project_file"):
                paths.update(node.get("paths", []) + node.get("except", []))
            if node.get("type") == "command":
                args.update(node.get("args") or [])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted(Path(cupcake.packs.__file__).parent.glob("*.toml")):
        walk(tomllib.loads(path.read_text()))
    return paths, args


_PATH_TEXTS = [
    "~/.ssh/id_rsa",
    "~/.ssh/a\nb",
    "~/.ssh/\n",
    "~/.ssh/",
    "~/.ssh",
    "~/.aws/credentials",
    "/etc/profile.d/a\nb.sh",
    "/etc/cron.d/x",
    "/etc/crond\n/x",
    "/etc/passwd",
    "/etc/passwd\n",
    "/home/u/p/.env.local",
    "/tmp/a\nb/.ssh/id_ed25519",
    "/dev/sda1",
    "/dev/sd/a",
    "id_rsa",
    "x.pem",
    "x.pem.pub",
    "my-credentials-prod.json",
    "service-account-1.json",
    ".env",
    ".env.example",
    "",
    "/",
]
_ARG_TEXTS = [".git", ".git/", "./.git/objects/ab", "a/.git/objects", "*", "[*]", "db:drop:all", "ns/x\ny", "", "-1"]
_ARG_TEXTS += ["deploy/web", "deploy", "/proc/1/environ", "/proc/1/2/environ", "/proc/\n/environ", "+x", "publish"]


def test_the_packs_globs_answer_as_their_regexes():
    paths, args = _pack_globs()
    assert len(paths) > 100 and len(args) > 100  # the test reads the packs (a layout change would empty it)
    run = Patterns()
    plain = 0
    for glob in sorted(paths):
        regex, form = glob_form(glob)
        ((shown_form, (found,)),) = by_form([glob])
        assert shown_form == form
        plain += _kind(found) != "regex"
        for text in _PATH_TEXTS + [t.rsplit("/", 1)[-1] for t in _PATH_TEXTS]:
            assert any_fits((found,), text, run) == (re.match(regex, text) is not None), (glob, text)
    for glob in sorted(args):
        regex = fnmatch.translate(glob)
        found = shape(regex)
        plain += _kind(found) != "regex"
        for text in _ARG_TEXTS + [glob]:
            assert any_fits((found,), text, run) == (re.match(regex, text) is not None), (glob, text)
    assert plain >= 0.95 * (len(paths) + len(args))  # matched without a regex
