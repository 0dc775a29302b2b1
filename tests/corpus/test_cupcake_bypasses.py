"""Cupcake's own bypass corpus (cupcake_bypasses.toml): every evasion of issue 17 is caught by the rule
named, and data is never taken for execution."""

from __future__ import annotations

import os

import pytest
import tomli

from cupcake.cli.scenarios import payload_for, run_payload

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "cupcake_bypasses.toml"), "rb") as _f:
    CASES = tomli.load(_f)["case"]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    base = tmp_path_factory.mktemp("bypass")
    root = os.path.realpath(base / "project")
    os.makedirs(os.path.join(root, "sub"))
    with open(os.path.join(root, "cupcake.toml"), "w") as f:
        f.write('imports = ["cupcake:recommended"]\n')
    env = dict(os.environ, HOME=str(base))
    return root, env


@pytest.mark.parametrize("case", CASES, ids=[c["command"][:40] for c in CASES])
def test_bypass_case(project, case):
    root, env = project
    outcome = run_payload(payload_for("PreToolUse", "Bash", {"command": case["command"]}, root), root, env)
    assert not outcome.failures
    assert outcome.decision == case["expect"], (outcome.decision, outcome.matched, outcome.text)
    if "rule" in case:
        assert outcome.policy == case["rule"]
