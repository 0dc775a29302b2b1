"""The capability tables in docs/agents.md are the ones the adapters generate."""

from __future__ import annotations

from pathlib import Path

from cupcake.agents import NAMES, adapter
from cupcake.agents.table import NOT_VERIFIED, agent_table, in_text, replaced, table

README = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def test_the_readme_holds_the_generated_tables():
    text = README.read_text(encoding="utf-8")
    assert in_text(text) == table(), "run `python -m cupcake.agents.table --write docs/agents.md`"


def test_a_changed_capability_changes_the_table(monkeypatch):
    before = agent_table("codex")
    line = dict(adapter("codex").CAPABILITIES["PreToolUse"], approve=True)
    monkeypatch.setitem(adapter("codex").CAPABILITIES, "PreToolUse", line)
    assert agent_table("codex") != before
    assert in_text(replaced(README.read_text(encoding="utf-8"))) != in_text(README.read_text(encoding="utf-8"))


def test_every_agent_has_a_table_and_cursor_says_it_is_not_verified():
    generated = table()
    for name in NAMES:
        assert f"(`--agent {name}`)" in generated
    cursor = agent_table("cursor")
    rows = [r for r in cursor.splitlines() if r.startswith("| ") and not r.startswith("| event")]
    assert rows and all(NOT_VERIFIED in r for r in rows)
