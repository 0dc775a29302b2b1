"""The OS layer inside the real Gemini CLI, Codex, Copilot CLI and droid, offline.

`cupcake sync --agent NAME --sandbox` is run as a user would; then the pinned client runs headless
against the scripted stand-in, and its model asks the agent's own shell tool for:
1. `python3 tool.py`: a script the hook cannot see into, which writes `cupcake.toml` through a name
   it builds when it runs, then an ordinary file, and exits 7;
2. an ordinary write in the project, exiting 3.
With the layer on, `cupcake.toml` is intact, the ordinary files are written, and the model is shown the
script's own "Read-only file system" and each exit status. Without it (the control) the same script
does change `cupcake.toml`: the jail is what stopped it.
"""

from __future__ import annotations

import shlex

import pytest

from cupcake.live.standin import Shell, Text
from tests.jail.scripts import OPAQUE

from .test_cupcake_in_agents import sync

pytestmark = pytest.mark.real_client

AGENTS = ("gemini", "codex", "copilot", "droid")
POLICY = (
    '[[policy]]\nname = "no-deploy"\nmatcher = "Bash"\n'
    "conditions = [{ type = \"command_regex\", value = '^deploy-prod' }]\n"
    'action = { type = "block_with_feedback", feedback_message = "No deploys from here." }\n'
)
# How each agent shows the model a command's exit status (seen with the pinned clients).
EXIT_SHOWN = {
    "gemini": "Exit Code: {code}",
    "codex": "Process exited with code {code}",
    "copilot": "exit code {code}",
    "droid": "exit code: {code}",
}


def _session(agent_session, agent: str, codex_sandbox: bool = False):
    session = agent_session(agent)
    (session.project / "cupcake.toml").write_text(POLICY)
    (session.project / "tool.py").write_text(OPAQUE)
    if codex_sandbox:  # as Codex is usually set up: its own sandbox on, which the jail cannot run inside
        config = session.codex_home / "config.toml"
        config.write_text(config.read_text().replace('"danger-full-access"', '"workspace-write"'))
    return session


def _sync(session, agent: str, *extra: str):
    from tests.conftest import cupcake_executable

    args = ["--command", cupcake_executable(), *extra]
    if agent == "codex":
        args.append("--trust")  # Codex skips untrusted hooks without a word
    return sync(session, agent, *args)


SCRIPT = [Shell("python3 tool.py"), Shell("echo ordinary > ordinary2.txt; exit 3"), Text("Done.")]


@pytest.mark.parametrize("agent", AGENTS)
def test_with_the_os_layer_an_opaque_script_cannot_change_the_policy_file(agent_session, agent):
    session = _session(agent_session, agent, codex_sandbox=agent == "codex")
    done = _sync(session, agent, "--sandbox")
    assert "OS layer: jailed" in done.stdout, done.stdout
    if agent == "copilot":  # as sync says: Copilot must be let into the two directories a jailed command names
        said = done.stdout[done.stdout.index("run `copilot ") + len("run `copilot ") :].split("`", 1)[0]
        dirs = shlex.split(said)
        assert dirs[0::2] == ["--add-dir", "--add-dir"], done.stdout
        base = session.command
        session.command = lambda prompt, url: [*base(prompt, url), *dirs]
    run = session.run(SCRIPT)
    assert run.returncode == 0, run.describe()
    shown = [r.text for r in run.tool_results]
    assert len(shown) == 2, run.describe()
    assert (session.project / "cupcake.toml").read_text() == POLICY, run.describe()
    assert "REFUSED Read-only file system" in shown[0], run.describe()
    assert EXIT_SHOWN[agent].format(code=7) in shown[0], run.describe()
    assert (session.project / "ordinary.txt").read_text() == "ok\n"
    assert (session.project / "ordinary2.txt").read_text() == "ordinary\n"
    assert EXIT_SHOWN[agent].format(code=3) in shown[1], run.describe()
    if agent == "gemini":  # the one client that tells the model its command was changed
        assert "Tool input parameters were modified by a hook" in shown[0]


@pytest.mark.parametrize("agent", AGENTS)
def test_without_the_os_layer_the_same_script_does_change_it(agent_session, agent):
    session = _session(agent_session, agent)
    _sync(session, agent)
    run = session.run(SCRIPT[:1] + SCRIPT[2:])
    assert run.returncode == 0, run.describe()
    assert (session.project / "cupcake.toml").read_text() == "# gone\n", run.describe()
    assert "WROTE" in run.shown_after_tool, run.describe()
