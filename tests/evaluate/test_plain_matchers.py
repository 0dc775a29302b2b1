"""A matcher made only of names and ``prefix.*`` is decided without compiling it: the same answer as
``re.fullmatch`` for every matcher and tool name, hostile names included."""

from __future__ import annotations

import random
import re

from cupcake.evaluate.conditions import plain_fullmatch

_MATCHERS = [
    "Bash",
    "Bash|mcp__.*",
    "Write|Edit|MultiEdit|NotebookEdit|Bash|mcp__.*",
    "Bash|Read|Grep|Glob|LS|mcp__.*",
    "mcp__github__.*",
    "mcp__.*|Read",
    "Read.*|Write",
]
_TOOLS = [
    "Bash",
    "bash",
    "Bash ",
    "Bash\n",
    "BashX",
    "mcp__",
    "mcp__x",
    "mcp__x\n",
    "mcp__x\ny",
    "mcp_",
    "Read",
    "Readme",
]
_TOOLS += ["Write", "NotebookEdit", "", "mcp__github__create_issue", "mcp__\u00e9", "R\u0435ad", "Read\r", "LS"]


def test_the_packs_matchers_answer_as_re_fullmatch():
    for matcher in _MATCHERS:
        for tool in _TOOLS:
            assert plain_fullmatch(matcher, tool) == bool(re.fullmatch(matcher, tool)), (matcher, tool)


def test_random_plain_matchers_answer_as_re_fullmatch():
    rng = random.Random(29)
    pieces = ["A", "b", "_", "1", "mcp", "__"]
    for _ in range(3000):
        alternatives = []
        for _ in range(rng.randint(1, 4)):
            name = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 3)))
            alternatives.append(name + (".*" if rng.random() < 0.4 else ""))
        matcher = "|".join(alternatives)
        tool = "".join(rng.choice(pieces + ["\n", ".", "x"]) for _ in range(rng.randint(0, 5)))
        assert plain_fullmatch(matcher, tool) == bool(re.fullmatch(matcher, tool)), (matcher, tool)


def test_any_other_pattern_is_left_to_the_regex():
    for matcher in ["Bash|", "|Bash", "Ba.h", "(?i)bash", "Bash$", "mcp__.+", "Bash|Re[a]d", "mcp__.*x", "\u00e9"]:
        assert plain_fullmatch(matcher, "Bash") is None, matcher
