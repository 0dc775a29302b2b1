"""No pack regex takes time that grows with the square of what the agent sends: Python's ``re`` has no
timeout, so a pattern that backtracks over a long run (an identifier, spaces, repeated openings) would
hold every tool call for as long as the agent likes. Each pattern of every pack is searched in hostile
texts of 40,000 characters built from its own pieces; a linear pattern takes about a millisecond."""

from __future__ import annotations

import re
import time
import tomllib
from pathlib import Path

import pytest

import cupcake.packs

PACKS = Path(cupcake.packs.__file__).parent
N = 40_000


def _patterns(node, found: list) -> None:
    if isinstance(node, dict):
        if str(node.get("type", "")).endswith("regex") and isinstance(node.get("value"), str):
            found.append(node["value"])
        if isinstance(node.get("args_regex"), str):
            found.append(node["args_regex"])
        for value in node.values():
            _patterns(value, found)
    elif isinstance(node, list):
        for value in node:
            _patterns(value, found)


def _all() -> list:
    found: list = []
    for path in sorted(PACKS.glob("*.toml")):
        _patterns(tomllib.loads(path.read_text()), found)
    return sorted(set(found))


def _hostile(pattern: str) -> list:
    """Long runs of the characters a pattern repeats, and its own literal pieces repeated."""
    pieces = [p for p in re.split(r"[\\\[\]()*+?{}|^$.]+", pattern) if p] or ["a"]
    texts = [
        "a" * N,
        "x=" + "a" * N + "; y=${x//a/${x}}; echo $y",
        " " * N,
        "$" + "A" * N,
        "-" * N,
        "/" * N,
        "a(){ " * (N // 5),
        "a() { a | " * (N // 10),
    ]
    texts += [(piece + " ") * (N // (len(piece) + 1)) for piece in pieces[:6]]
    return texts


PATTERNS = _all()


def test_the_packs_have_patterns():
    assert len(PATTERNS) >= 15  # the test reads the packs' files (a layout change would empty it)


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_pack_pattern_is_linear_in_what_it_reads(pattern):
    rx = re.compile(pattern)
    worst = 0.0
    for text in _hostile(pattern):
        start = time.process_time()
        rx.search(text)
        worst = max(worst, time.process_time() - start)
    assert worst < 0.25, (pattern, worst)  # quadratic patterns take seconds here; linear ones ~1 ms
