"""The event table of docs/policies.md names every event a policy may name."""

from __future__ import annotations

from cupcake.agents.claude.capabilities import EVENTS
from tests.conftest import REPO


def test_the_readme_lists_every_event_a_policy_may_name():
    text = (REPO / "docs" / "policies.md").read_text()
    table = text[text.index("**Events.**") :]
    table = table[: table.index("\n\n", table.index("| event |"))]
    rows = "\n".join(line for line in table.splitlines() if line.startswith("| `"))
    assert [e for e in EVENTS if f"`{e}`" not in rows] == []
