"""The capability table checked against the real clients (as a claim in the docs must be).

For each agent, every CAPABILITIES row marked as verified with the real client is checked live in
one session, as far as a headless run can show it: on the before-tool event, a block reaches the model
in the shape its ``reason_seen_as`` says; where the row claims approve, an approved command runs and
the model is shown no denial; where it claims context, the text reaches the model. Rows marked with
the real client whose other claims cannot be checked here must say so in their notes (ask needs a
person at the terminal). Events with nothing to honour are checked by the payload test of the harness.
"""

from __future__ import annotations

import re

import pytest

from cupcake.agents import adapter
from cupcake.live.standin import Shell, Text

from .test_cupcake_in_agents import AGENTS, _sync_default

pytestmark = pytest.mark.real_client

TEAM = "The team does not allow rm -rf."
APPROVED = "Approved by the team's policy."
CONTEXT = "Context from the team: builds go through make."


def real_rows(agent: str) -> dict:
    mod = adapter(agent)
    return {event: line for event, line in mod.CAPABILITIES.items() if line["verified"].startswith("real client")}


def policy(row) -> str:
    parts = [
        '[[policy]]\nname = "no-rm-rf"\nmatcher = "Bash"\n'
        "conditions = [{ type = \"command_regex\", value = 'rm\\s+-rf' }]\n"
        f'action = {{ type = "block_with_feedback", feedback_message = "{TEAM}" }}\n'
    ]
    if row["approve"]:
        parts.append(
            '[[policy]]\nname = "approve-echo"\nmatcher = "Bash"\n'
            "conditions = [{ type = \"command_regex\", value = '^echo approved' }]\n"
            f'action = {{ type = "approve", reason = "{APPROVED}" }}\n'
        )
    if row["context"]:
        parts.append(
            '[[policy]]\nname = "context-echo"\nmatcher = "Bash"\n'
            "conditions = [{ type = \"command_regex\", value = '^echo ctx' }]\n"
            f'action = {{ type = "inject_context", text = "{CONTEXT}" }}\n'
        )
    return "\n".join(parts)


def test_every_real_client_row_is_checked_here_or_says_what_is_not():
    """No row may claim more than this file checks live without saying so in its notes."""
    for agent in AGENTS:
        for event, line in real_rows(agent).items():
            if event != "PreToolUse":
                assert not any(line[k] for k in ("block", "ask", "approve", "context")), (agent, event)
            elif line["ask"]:
                assert "ask" in line["notes"] and ("documented" in line["notes"] or "not verified" in line["notes"])


@pytest.mark.parametrize("agent", AGENTS)
def test_the_before_tool_row_holds_in_the_real_client(agent_session, agent):
    row = real_rows(agent)["PreToolUse"]
    assert row["block"], "a before-tool row marked verified must at least block"
    session = agent_session(agent)
    (session.project / "cupcake.toml").write_text(policy(row))
    _sync_default(session, agent)
    (session.project / "build").mkdir()
    script = [Shell("rm -rf build")]
    if row["approve"]:
        script.append(Shell("echo approved > approved.txt"))
    if row["context"]:
        script.append(Shell("echo ctx > ctx.txt"))
    run = session.run([*script, Text("Done.")])
    assert run.returncode == 0, run.describe()
    shown = [r.text for r in run.tool_results]
    assert len(shown) == len(script), run.describe()
    # block: the reason in the shape the table says, and the command did not run
    # (Cupcake's reason holds the team's message: the table's <reason>)
    before, after = row["reason_seen_as"].replace("<command>", "rm -rf build").split("<reason>")
    seen = re.compile(re.escape(before) + r".*" + re.escape(TEAM) + r".*" + re.escape(after), re.S)
    assert seen.search(shown[0]), f"the table says {row['reason_seen_as']!r}\n" + run.describe()
    assert (session.project / "build").is_dir()
    n = 1
    if row["approve"]:
        assert (session.project / "approved.txt").exists(), run.describe()
        assert "denied" not in shown[n].lower() and "blocked" not in shown[n].lower(), run.describe()
        n += 1
    if row["context"]:
        assert (session.project / "ctx.txt").exists(), run.describe()
        assert CONTEXT in run.last_model_input, "the table claims context on the before-tool event\n" + run.describe()
