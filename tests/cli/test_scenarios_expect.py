"""`cupcake test`: an ``expect`` that is not a string is reported, never a crash."""

from __future__ import annotations

from cupcake.cli.scenarios import problems_of


def test_a_list_as_expect_is_a_problem_not_a_crash():
    found = problems_of({"expect": ["deny"], "command": "ls"}, "s.toml scenario 1")
    assert any("`expect` must be one of" in p and "['deny']" in p for p in found)


def test_an_alias_still_names_its_decision():
    assert not any("`expect`" in p for p in problems_of({"expect": "deny", "command": "ls"}, "s"))
