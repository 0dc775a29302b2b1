"""Bounds: any input returns (never raises), bounded in work and memory, flagged when cut short."""

from __future__ import annotations

import random
import tracemalloc

import pytest

from cupcake.shell import parse
from cupcake.shell.limits import MAX_COMMANDS, MAX_INPUT


def test_too_long_to_read():
    script = parse("echo " + "a" * (MAX_INPUT + 10), "/p", "/h", {})
    assert script.incomplete == "too long to read"


def test_the_225_kb_glob_command_is_bounded():
    command = " ".join(["/*/*/*/*"] * 25000)  # ≈225 KB
    assert len(command) > 220_000
    tracemalloc.start()
    script = parse(command, "/p", "/h", {})
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert script.incomplete == "too long to read"
    assert peak < 50 * 1024 * 1024
    assert script.commands and script.commands[0].words[1].glob


@pytest.mark.parametrize(
    "command, reason",
    [
        ("$(" * 200 + "x" + ")" * 200, "nesting too deep"),
        ("( " * 200 + "x" + ")" * 200, "nesting too deep"),
        ("{ " * 200 + "x" + "; }" * 200, "nesting too deep"),
        ("x;" * (MAX_COMMANDS + 5), "too many commands"),
        ("eval " + "'eval " * 60 + "x" + "'" * 60, "nesting too deep"),
    ],
)
def test_bounds_mark_incomplete(command, reason):
    script = parse(command, "/p", "/h", {})
    assert script.incomplete == reason


def test_nested_shells_are_bounded():
    script = parse("eval " * 100 + "x", "/p", "/h", {})
    assert script.incomplete == "nesting too deep"
    script = parse("sh -c " * 100 + "x", "/p", "/h", {})  # sh -c sh -c …: each level a script of its own
    assert script.incomplete is None or script.incomplete == "nesting too deep"


def test_brace_bomb_is_bounded():
    script = parse("echo " + "{a,b,c,d}" * 30 + " " + "{1..99999999}", "/p", "/h", {})
    assert script.incomplete is None
    assert all(not w.known for w in script.commands[0].words[1:])


def test_work_budget():
    word = "{" + ",".join("a" * 50 for _ in range(200)) + "}"
    script = parse("eval " + " ".join([word] * 60), "/p", "/h", {})
    assert script.incomplete is not None


@pytest.mark.parametrize(
    "command",
    [
        "'",
        '"',
        "$(",
        "`",
        "${",
        "$((",
        "<<EOF",
        "case x in",
        "if",
        "for",
        "((",
        "[[ a",
        "a |",
        "a &&",
        ")",
        "}",
        "fi",
        ";;",
        "\\",
        "$'\\",
        "$'\\U0011ffff'",
        "echo \ud800",
        "\udcff\udcfe",
        "\x00\x01\x02",
        "{a..}",
        "{..}",
        "a{,}{,}",
        ">",
        "2>&",
        "&>",
        "f() ",
        "function",
        "coproc",
        "!",
        "time",
        "cd ~-",
        "a=(",
        "${#x[@]}",
    ],
)
def test_never_raises(command):
    script = parse(command, "/p", "/h", {})
    assert script.incomplete is None or not script.incomplete.startswith("internal error")


def test_fuzz_random_input_never_raises():
    rng = random.Random(15)
    alphabet = list("ab $'\"`\\(){}[]<>|&;\n#~*?!=-:,.0123456789") + ["\ud800", "$(", "<<", "..", "{a,b}"]
    for _ in range(1500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        script = parse(text, rng.choice(["/p", None]), "/h", {})
        assert script.incomplete is None or not script.incomplete.startswith("internal error"), text
        script.writes  # noqa: B018  (computing the writes must not raise either)
    for _ in range(300):
        data = bytes(rng.randrange(256) for _ in range(rng.randint(0, 80)))
        script = parse(data.decode("utf-8", "surrogateescape"), "/p", "/h", {})
        assert script.incomplete is None or not script.incomplete.startswith("internal error")
        script.writes  # noqa: B018


def test_non_string_input():
    assert parse(None).commands == []
    assert parse(b"rm x").commands  # read as its text form, never raises


X = "a" * 3000
# The worst inputs found for each part of the reader: each ends within seconds, in bounded memory,
# and the ones that pass a bound are flagged (a caller that needs certainty blocks).
WORST = {
    "doubling a value": ("x=ab; " + 'x="$x$x"; ' * 60 + "rm $x", "work budget exhausted"),
    "doubling by replacement": ("x=a; " + "x=${x//a/aa}; " * 60 + "echo $x", "work budget exhausted"),
    "a value replaced by itself": ("x=" + "a" * 60000 + "; y=${x//a/${x}}; echo $y", "work budget exhausted"),
    "a suffix pattern that backtracks": (f"x={X}; echo ${{x%%" + "*a" * 30 + "*b}}", "work budget exhausted"),
    "recursion": ("f() { f; }; f", "nesting too deep"),
    "mutual recursion": ("f() { g; g; }; g() { f; f; }; f", "nesting too deep"),
    "a call tree": ("".join(f"f{i}() {{ f{i + 1}; f{i + 1}; }}; " for i in range(40)) + "f0", "nesting too deep"),
    "ten nested loops": ("for a in 1 2 3 4 5 6 7 8; do " * 10 + "echo $a" + "; done" * 10, "too many commands"),
    "a script that sources itself": ("echo 'source /tmp/s.sh' > /tmp/s.sh; source /tmp/s.sh", "nesting too deep"),
    "20,000 words split by IFS": ("x='" + " ".join(["w"] * 20000) + "'; set -- $x; echo $#", None),
    "a case pattern of 30 stars": (f"x={X}; case $x in " + "*a" * 30 + "*b) rm y;; esac", None),
    "200 brace groups": ("echo " + " ".join(["{a,b}{c,d}{e,f}{g,h}"] * 200), None),
    # Each path a command names is compared with every path an earlier command of the line wrote (a link
    # may be there now): a long line of plain commands costs the square of its length. 2,000 copies took
    # a minute, past every agent's hook time-out; the comparisons are now paid from the work budget.
    "2,000 copies": ("; ".join(f"cp a{i} b{i}" for i in range(MAX_COMMANDS)), "work budget exhausted"),
    "2,000 links": ("; ".join(f"ln -s a{i} b{i}" for i in range(MAX_COMMANDS)), "work budget exhausted"),
    "2,000 copies to unknown places": (
        "; ".join(f'cp a{i} "$D{i}"' for i in range(MAX_COMMANDS)),
        "work budget exhausted",
    ),
    "2,000 copies through links": (
        "; ".join(f"ln -s /x{i} l{i}; cp a l{i}/b" for i in range(MAX_COMMANDS // 2)),
        "work budget exhausted",
    ),
}


@pytest.mark.parametrize("name", list(WORST))
def test_the_worst_inputs_end_quickly_in_bounded_memory(name):
    import time

    command, reason = WORST[name]
    tracemalloc.start()
    started = time.monotonic()
    script = parse(command, "/p", "/h", {})
    seconds = time.monotonic() - started
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert script.incomplete == reason
    assert peak < 100 * 1024 * 1024, peak
    assert seconds < 10, seconds
