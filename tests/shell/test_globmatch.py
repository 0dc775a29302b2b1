"""The pattern matcher shared by imports (cold) and self-protection (warm) agrees with fnmatch."""

from __future__ import annotations

import fnmatch

import pytest

from cupcake.shell.globmatch import match_name, match_path

NAMES = ["a.toml", "abbxc", "bx", "x[", "z9", "cat.toml", "b1.tx", "security.toml", "-dash", "]"]
PATTERNS = ["*.toml", "a*b?c", "[abc]*", "[!a]x", "*", "?", "[a-c]?.t*", "x[", "*[0-9]", "*a*a*", "[]]", "s*.toml"]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_one_component_matches_like_fnmatch(pattern):
    for name in NAMES:
        assert match_name(pattern, name) == fnmatch.fnmatchcase(name, pattern), (pattern, name)


def test_hidden_names_need_a_dot_in_the_pattern():
    assert not match_name("*.toml", ".secret.toml")
    assert match_name(".*.toml", ".secret.toml")


@pytest.mark.parametrize(
    "pattern, path, expected",
    [
        ("policies/*.toml", "policies/a.toml", True),
        ("policies/*.toml", "policies/sub/a.toml", False),
        ("policies/**/*.toml", "policies/a.toml", True),
        ("policies/**/*.toml", "policies/x/y/a.toml", True),
        ("policies/**/*.toml", "policies/.git/a.toml", False),
        ("*/rules.toml", "team/rules.toml", True),
    ],
)
def test_paths(pattern, path, expected):
    assert match_path(pattern.split("/"), path.split("/")) is expected


def test_a_prefix_match_says_whether_a_path_that_begins_so_could_match():
    """What a read of a pattern could name inside a folder (self-protection's secret folders): a
    literal pattern's own end never decides, a `*` never crosses a `/`, an unknown part may."""
    from cupcake.shell.words import ANY, STAR, match

    folder = "/h/.claude/projects/"
    assert match(list("/h/.claude/projects/p/x.jsonl"), folder, prefix=True)
    assert match(list("/h/.claude/") + [ANY], folder, prefix=True)
    assert match(list("/h/.claude/") + [STAR] + list("/x.jsonl"), folder, prefix=True)
    assert not match(list("/h/.claude/") + [STAR], folder, prefix=True)  # a name in .claude, not below it
    assert not match(list("/h/src/x.py"), folder, prefix=True)
    assert not match(list("/h/.claude/projects/p/x.jsonl"), folder)  # without prefix: the whole text
