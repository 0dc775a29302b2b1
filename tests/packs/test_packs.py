"""The built-in rule packs: well-formed rules, their own examples, the table in docs/packs.md, ``[packs]``."""

from __future__ import annotations

import json
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
        if packs.load(name).include:
            continue  # a gathering pack (recommended, production): its rules are the others'
        for rule in packs.load(name).rules:
            assert rule["id"].startswith(name + "."), rule["id"]
            assert rule["id"] not in seen
            seen.add(rule["id"])
            assert rule.get("severity") in packs.SEVERITIES
            assert packs.level_of(rule) in packs.LEVELS
            assert len(rule["message"]) > 30
            kinds = {e for e, _t, _i, _f in packs.examples(rule)}
            assert kinds == {"stop", "pass"}, rule["id"]
    assert {r["id"] for r in packs.load("recommended").rules} == seen


def test_the_packs_the_issue_asks_for():
    families = {"secrets", "sensitive-files", "destructive", "processes", "databases", "containers", "cloud"}
    families |= {"git", "network", "publishing", "system", "shell", "recommended"}
    assert families <= set(packs.names())


def test_every_pack_example_holds():
    failures = [
        (rule["id"], expected, tool_input, outcome.decision, outcome.matched)
        for _name, rule, expected, _tool, tool_input, outcome, ok in pack_results(os.environ)
        if not ok
    ]
    assert failures == []


def _rule_keywords(rule) -> set:
    """The programs a rule's conditions name, and the literal pieces of its paths and patterns."""
    found: set = set()

    def walk(cond):
        if "any" in cond:
            for c in cond["any"]:
                walk(c)
        elif "not" in cond:
            walk(cond["not"])
        else:
            program = cond.get("program")
            found.update([program] if isinstance(program, str) else program or [])
            for glob in cond.get("paths", []):
                found.update(p for p in re.split(r"[*?\[\]{},/~]+", glob) if len(p) > 1)
            if cond.get("type") in ("sql", "secret", "hidden_code"):
                found.add(cond["type"])
            if cond.get("type") == "command_regex":
                text = re.sub(r"\\[a-zA-Z]", " ", cond["value"])
                found.update(w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9_.-]{2,}", text))

    found.update(rule.get("keywords", []))  # what a near miss shares when no program names it
    for cond in rule.get("conditions", []):
        walk(cond)
    return found


def _near(rule, tool, tool_input, keywords) -> bool:
    if {"sql", "secret", "hidden_code"} & keywords:
        return True  # the near miss is in the content: same tool, harmless text (checked by the examples)
    text = json.dumps(tool_input).lower()
    return any(k.lower() in text for k in keywords)


def test_every_should_pass_example_is_a_near_miss():
    """A should-pass example shares the rule's program or keyword: it tests the rule's edge, not
    some unrelated command (Codex's `not_match = ["hea"]` for `head` tests nothing)."""
    far = []
    for name in packs.names():
        for rule in packs.load(name).rules:
            keywords = _rule_keywords(rule)
            for expected, tool, tool_input, _files in packs.examples(rule):
                if expected == "pass" and not _near(rule, tool, tool_input, keywords):
                    far.append((rule["id"], tool_input))
    assert far == []


def test_the_docs_table_is_generated_from_the_packs():
    with open(os.path.join(REPO, "docs", "packs.md"), encoding="utf-8") as f:
        text = f.read()
    found = re.search(r"<!-- packs-table:start -->\n(.*?)\n<!-- packs-table:end -->", text, re.S)
    assert found, "docs/packs.md has no packs table"
    assert found.group(1) == markdown_table(), "regenerate it: python -m cupcake.cli.packs"


def test_packs_json_shape():
    data = packs_data()
    assert all(set(p) == {"name", "description", "include", "rules"} for p in data)
    git = next(p for p in data if p["name"] == "git")
    rule = next(r for r in git["rules"] if r["id"] == "git.force-push")
    assert rule["level"] == "block" and rule["tools"] == "Bash" and rule["example"] == "git push --force"


@pytest.mark.parametrize(
    "packs_table, problem",
    [
        ('disable = ["git.nope"]', 'no built-in rule has the id "git.nope"'),
        ('levels = { "git.force-pushh" = "warn" }', 'did you mean "git.force-push"'),
        ('levels = { "git.force-push" = "maybe" }', "the level is one of block, ask, warn"),
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


@pytest.mark.parametrize("level, decision", [("warn", "warn"), ("ask", "ask"), ("block", "block")])
def test_a_team_moves_a_rule_to_another_lane(tmp_path, level, decision):
    from cupcake.cli.scenarios import payload_for, run_payload

    root = os.path.realpath(tmp_path / "project")
    os.makedirs(root)
    with open(os.path.join(root, "cupcake.toml"), "w") as f:
        f.write(f'imports = ["cupcake:git"]\n[packs.levels]\n"git.force-push" = "{level}"\n')
    env = dict(os.environ, HOME=str(tmp_path / "home"))
    outcome = run_payload(payload_for("PreToolUse", "Bash", {"command": "git push --force"}, root), root, env)
    assert outcome.decision == decision
    assert "git.force-push" in outcome.matched
