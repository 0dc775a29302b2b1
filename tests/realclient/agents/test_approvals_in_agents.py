"""Approval codes in the real Gemini CLI, Codex, droid and Copilot CLI: the code goes where the agent
shows the user (Gemini prints "Hook system message: …"), never into a request to the model; with the
code a person lets the call through; Copilot CLI, with no user-only channel, gets no code at all."""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest

from cupcake.live.standin import Shell, Text

from ...conftest import cupcake_executable
from .test_cupcake_in_agents import _sync_default

pytestmark = pytest.mark.real_client

MARK = "needs-a-person"
POLICY = f"""
[[policy]]
name = "hold-release"
matcher = "Bash"
conditions = [{{ type = "command_regex", value = "{MARK}" }}]
action = {{ type = "block_with_feedback", feedback_message = "Releases wait for a person." }}
"""
CALL = f"echo released > released.txt # {MARK}"
CODE = re.compile(r"cupcake allow ([0-9A-Z]{4}-[0-9A-Z]{4})")


def _blocked(agent_session, agent):
    session = agent_session(agent)
    (session.project / "cupcake.toml").write_text(POLICY)
    _sync_default(session, agent)  # sync also creates the per-user secret that keys the codes
    run = session.run([Shell(CALL), Text("Done.")])
    assert run.returncode == 0, run.describe()
    assert "Releases wait for a person." in run.shown_after_tool, run.describe()
    assert not (session.project / "released.txt").exists()
    sent = json.dumps([r.body for r in run.requests])
    assert "cupcake allow" not in sent, run.describe()  # neither the command nor its code reached the model
    return session, run


@pytest.mark.parametrize("agent", ["codex", "droid"])
def test_the_code_never_reaches_the_model(agent_session, agent):
    session, _run = _blocked(agent_session, agent)
    offers = [
        line for line in (session.project / ".cupcake" / "approval-offers.jsonl").read_text().splitlines() if line
    ]
    assert len(offers) == 1 and not (session.project / ".cupcake" / "approvals.json").exists()  # to the user only


def test_gemini_shows_the_person_the_code_and_the_person_lets_the_call_through(agent_session):
    session, run = _blocked(agent_session, "gemini")
    found = CODE.search(run.stderr)
    assert found and "Hook system message: Cupcake: hold-release blocked this call" in run.stderr, run.describe()
    env = {**session.base_environment(), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    done = subprocess.run(
        [cupcake_executable(), "allow", found.group(1)], cwd=session.project, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    again = session.run([Shell(CALL), Text("Done.")])
    assert (session.project / "released.txt").read_text() == "released\n", again.describe()


def test_copilot_has_no_user_only_channel_so_no_code_is_offered(agent_session):
    session, _run = _blocked(agent_session, "copilot")
    assert not (session.project / ".cupcake" / "approvals.json").exists()
    assert not (session.project / ".cupcake" / "approval-offers.jsonl").exists()
