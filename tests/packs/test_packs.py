"""The built-in rule packs: well-formed rules, their own examples, the table in docs/packs.md, ``[packs]``."""

from __future__ import annotations

import os
import re

import pytest

from cupcake import packs
from cupcake.cli.packs import markdown_table, packs_data
from cupcake.cli.scenarios import pack_results

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_every_rule_is_complete():
    seen = set()
    for name in packs.names():
        if name == "recommended":
            continue
        for rule in packs.load(name).rules:
            assert rule["id"].startswith(name + "."), rule["id"]
            assert rule["id"] not in seen
            seen.add(rule["id"])
            assert rule.get("severity") in packs.SEVERITIES
            assert rule.get("action", "block") in packs.ACTIONS
            assert len(rule["message"]) > 30
            kinds = {e for e, _t, _i in packs.examples(rule)}
            assert kinds == {"match", "pass"}, rule["id"]
    assert {r["id"] for r in packs.load("recommended").rules} == seen


def test_the_packs_the_issue_asks_for():
    assert {"destructive", "git", "secrets", "network", "system", "production", "publishing", "recommended"} <= set(
        packs.names()
    )


def test_every_pack_example_holds():
    failures = [
        (rule["id"], expected, tool_input, outcome.decision, outcome.matched)
        for _name, rule, expected, _tool, tool_input, outcome, ok in pack_results(os.environ)
        if not ok
    ]
    assert failures == []


def test_the_docs_table_is_generated_from_the_packs():
    with open(os.path.join(REPO, "docs", "packs.md"), encoding="utf-8") as f:
        text = f.read()
    found = re.search(r"<!-- packs-table:start -->\n(.*?)\n<!-- packs-table:end -->", text, re.S)
    assert found, "docs/packs.md has no packs table"
    assert found.group(1) == markdown_table(), "regenerate it: python -m cupcake.cli.packs"


def test_packs_json_shape():
    data = packs_data()
    assert all(set(p) == {"name", "description", "rules"} for p in data)
    git = next(p for p in data if p["name"] == "git")
    assert "git.force-push" in [r["id"] for r in git["rules"]]


@pytest.mark.parametrize(
    "packs_table, problem",
    [
        ('disable = ["git.nope"]', 'no built-in rule has the id "git.nope"'),
        ('disable = "git.force-push"', "`disable` must be an array"),
        ("colour = 1", "unknown key `colour`"),
    ],
)
def test_packs_settings_are_checked(tmp_path, packs_table, problem):
    from cupcake.compile.compiler import compile_files

    path = tmp_path / "cupcake.toml"
    path.write_text(f'imports = ["cupcake:git"]\n[packs]\n{packs_table}\n')
    compiled = compile_files([str(path)], str(tmp_path), {"HOME": str(tmp_path / "home")})
    assert any(problem in p["message"] for p in compiled["problems"]), compiled["problems"]


def test_a_disabled_rule_is_not_compiled_and_a_message_is_replaced(tmp_path):
    from cupcake.compile.compiler import compile_files

    path = tmp_path / "cupcake.toml"
    path.write_text(
        'imports = ["cupcake:git", "cupcake:recommended"]\n[packs]\ndisable = ["git.reset-hard"]\n'
        '[packs.messages]\n"git.force-push" = "Open a pull request."\n'
    )
    compiled = compile_files([str(path)], str(tmp_path), {"HOME": str(tmp_path / "home")})
    names = [p[0] for p in compiled["policies"]]
    assert "git.reset-hard" not in names
    assert len(names) == len(set(names))  # a rule of two imported packs is taken in once
    force = next(p for p in compiled["policies"] if p[0] == "git.force-push")
    assert force[4][1] == "Open a pull request. [git.force-push]"
