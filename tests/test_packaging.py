"""What the package says about itself: an SPDX licence with its text shipped, a description that names
agents (Claude Code as the default only), and every dependency bounded on both sides."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_licence_is_an_spdx_expression_and_its_text_ships():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    assert (REPO / "LICENSE").read_text().startswith("MIT License\n")


def test_the_description_speaks_of_agents():
    assert "agents" in PROJECT["description"] and "Claude Code by default" in PROJECT["description"]


def test_every_dependency_has_a_lower_and_an_upper_bound():
    wanted = PROJECT["dependencies"] + PROJECT["optional-dependencies"]["test"]
    loose = [r for r in wanted if not (re.search(r">=\d", r) and re.search(r",<\d", r))]
    pinned = [r for r in PROJECT["optional-dependencies"]["dev"] if "==" not in r]
    assert loose == [] and pinned == [], (loose, pinned)
