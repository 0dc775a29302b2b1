"""Matchers that no tool can match, and the policy a permission rule means."""

from __future__ import annotations

import re

import pytest

from cupcake.compile.tool_names import equivalent, matcher_warning


@pytest.mark.parametrize(
    "matcher",
    ["Bash", "Bash|Read", "Write|Edit|MultiEdit", ".*", "Notebook.*", "mcp__github__.*", "mcp__.*", "Task|Agent"],
)
def test_matchers_some_tool_matches_pass(matcher):
    assert matcher_warning(matcher) is None


@pytest.mark.parametrize(
    "matcher, words",
    [
        ("bash", 'did you mean "Bash"?'),
        ("bash|Edit", "that part never matches"),
        ("Foo.*", "matches no tool"),
        ("Bash(git *)", "permission-rule syntax"),
    ],
)
def test_matchers_no_tool_matches_are_warned(matcher, words):
    assert words in matcher_warning(matcher)


@pytest.mark.parametrize(
    "tool, argument, subject, matches, misses",
    [
        ("Bash", "git *", "command_regex", "git push --force", "gitk"),
        ("Bash", "npm run test:*", "command_regex", "npm run test -- --watch", "npm run lint"),
        ("Read", "./.env", "filepath_regex", ".env", "src/.env"),
        ("Edit", "src/**", "filepath_regex", "src/a/b.py", "lib/a.py"),
    ],
)
def test_the_equivalent_policy_means_the_permission_rule(tool, argument, subject, matches, misses):
    text = equivalent(tool, argument)
    assert text.startswith(f'matcher = "{tool}"') and subject in text
    pattern = re.search(r"value = '([^']*)'", text).group(1)
    assert re.search(pattern, matches) and not re.search(pattern, misses)
