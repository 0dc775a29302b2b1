"""The capability tables in docs/agents.md, and the security-model table in the README, are the ones the
adapters generate."""

from __future__ import annotations

from pathlib import Path

from cupcake.agents import NAMES, adapter
from cupcake.agents.table import NOT_VERIFIED, agent_table, in_text, replaced, table

PAGE = Path(__file__).resolve().parents[2] / "docs" / "agents.md"
README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_agents_page_holds_the_generated_tables():
    text = PAGE.read_text(encoding="utf-8")
    assert in_text(text) == table(), "run `python -m cupcake.agents.table --write docs/agents.md`"


def test_a_changed_capability_changes_the_table(monkeypatch):
    before = agent_table("codex")
    line = dict(adapter("codex").CAPABILITIES["PreToolUse"], approve=True)
    monkeypatch.setitem(adapter("codex").CAPABILITIES, "PreToolUse", line)
    assert agent_table("codex") != before
    assert in_text(replaced(PAGE.read_text(encoding="utf-8"))) != in_text(PAGE.read_text(encoding="utf-8"))


def test_every_agent_has_a_table_and_cursor_says_it_is_not_verified():
    generated = table()
    for name in NAMES:
        assert f"(`--agent {name}`)" in generated
    cursor = agent_table("cursor")
    rows = [r for r in cursor.splitlines() if r.startswith("| ") and not r.startswith("| event")]
    assert rows and all(NOT_VERIFIED in r for r in rows)


def test_the_readme_holds_the_generated_security_model_table():
    from cupcake.agents.table import LAYERS_BEGIN, LAYERS_END, security_table

    text = README.read_text(encoding="utf-8")
    assert in_text(text, LAYERS_BEGIN, LAYERS_END) == security_table(), (
        "run `python -m cupcake.agents.table --write README.md`"
    )


def test_each_agents_os_layer_is_what_the_code_does():
    """A "jailed" agent has a rewrite of its shell tool and a sync that turns it on; a "sandboxed" one is
    Claude Code, whose own sandbox sync turns on; each agent's table says its layer."""
    from cupcake.agents.table import LAYER_WORDS

    for name in NAMES:
        mod = adapter(name)
        layer = mod.OS_LAYER
        assert layer["layers"], name
        if "jailed" in layer["layers"]:
            assert mod.REWRITE["tools"] <= set(mod.SHELL_TOOLS) | {"Bash"}, name
            assert mod.REWRITE["tools"], name
            assert "--jail" in layer["turn_on"] or f"--agent {name} --sandbox" in layer["turn_on"], name
        if "sandboxed" in layer["layers"]:
            assert name == "claude" and "`cupcake sync --sandbox`" in layer["turn_on"]
        assert (
            layer["verified"] == (mod.REWRITE["verified"] if name != "cursor" else layer["verified"])
            or name == "claude"
        )
        assert " or ".join(LAYER_WORDS[w] for w in layer["layers"]) in agent_table(name)
