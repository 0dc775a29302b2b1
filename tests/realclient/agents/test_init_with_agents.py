"""`cupcake init --agent NAME` with the real Codex, Gemini CLI, Copilot CLI and droid, offline.

The project has a CLAUDE.md and, in the agent's own hook file, a hook that would block every event
and leave a mark: the translation must run with hooks off. The scripted model writes
`cupcake.toml.tmp` with the agent's own file tool (Codex and droid: their shell), init checks it with the loader
and saves it (`--yes`). One session per agent, with the client the other real-client tests share.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cupcake.live.standin import Shell, Text, ToolCall

from ...conftest import cupcake_executable
from .conftest import agent_executable
from .install import runtime_cache
from .sessions import make_session

pytestmark = pytest.mark.real_client

RULES = "# Rules\n\n- Never run `rm -rf`.\n"
POLICY = """[[policy]]
name = "never-rm-rf"
matcher = "Bash"
conditions = [{ type = "command_regex", value = 'rm\\s+-rf' }]
action = { type = "block_with_feedback", feedback_message = "Never run rm -rf (CLAUDE.md)." }
"""


def write_turn(agent: str, path: str, policy: str = POLICY):
    """The model's turn that writes ``path`` with the agent's own tool."""
    if agent == "gemini":
        return ToolCall("write_file", {"file_path": path, "content": policy})
    if agent == "copilot":
        return ToolCall("create", {"path": path, "file_text": policy})
    return Shell(
        f"cat > {shlex.quote(path)} <<'POLICY_END'\n{policy}POLICY_END"
    )  # codex, droid: their shell (droid offers a custom model no Create tool, and its ApplyPatch
    # refused the scripted patch)


def agent_command(session, agent: str, base_url: str) -> str:
    """The client's program, and what points it at the stand-in (the rest is the translator's)."""
    words = [str(session.executable)]
    if agent == "codex":
        words += ["-c", f'model_providers.standin.base_url="{base_url}/v1"']
    if agent == "droid":
        words += ["-m", f"custom:{session.model_name}-0"]
    return shlex.join(words)


@pytest.fixture
def private_session():
    """A session whose directories no other user may write: Gemini CLI skips a system settings file
    below a directory such as /tmp (world-writable), so these live beside the installed client."""
    made = []

    def make(agent: str):
        executable = agent_executable(agent)
        base = runtime_cache(executable).parent / "init-sessions"
        base.mkdir(mode=0o700, exist_ok=True)
        made.append(tempfile.mkdtemp(dir=base))
        return make_session(agent, executable, Path(made[-1]))

    yield make
    for path in made:
        shutil.rmtree(path, ignore_errors=True)


def run_init(session, agent: str, script, *extra: str):
    with session.standin_class(script, shell=session.shell_call, max_lifetime=200) as standin:
        session.before_run(standin.base_url)
        env = {**session.base_environment(), **session.environment(standin.base_url)}
        args = [cupcake_executable(), "init", "--agent", agent, "--agent-command"]
        args += [agent_command(session, agent, standin.base_url), "--yes", "--no-sync", "--agent-timeout", "120"]
        done = subprocess.run(
            args + list(extra), cwd=session.project, env=env, capture_output=True, text=True, timeout=300
        )
    return done, standin


@pytest.mark.parametrize("agent", ("codex", "gemini", "copilot", "droid"))
def test_init_translates_with_the_agent(private_session, agent, tmp_path):
    session = private_session(agent)
    (session.project / "CLAUDE.md").write_text(RULES)
    mark = tmp_path / f"{agent}-hook-ran"
    session.write_hooks(["sh", "-c", 'touch "$0"; echo hooks must be off >&2; exit 2', str(mark)])
    tmp = str(session.project / "cupcake.toml.tmp")
    script = [write_turn(agent, tmp), Text("Wrote cupcake.toml.tmp.")]
    if agent == "gemini":  # its edit tools may write the temporary files only
        script.insert(0, write_turn(agent, str(session.project / "CLAUDE.md"), "# overwritten\n"))
    done, standin = run_init(session, agent, script)
    report = f"exit {done.returncode}\nstdout: {done.stdout[-4000:]}\nstderr: {done.stderr[-4000:]}"
    assert done.returncode == 0, report
    assert standin.main_loop_requests, report  # the real client asked the (scripted) model
    assert (session.project / "cupcake.toml").read_text() == POLICY, report
    assert not (session.project / "cupcake.toml.tmp").exists(), report
    assert not mark.exists(), "a hook ran during the translation\n" + report
    assert "never-rm-rf" in done.stdout, report
    assert (session.project / "CLAUDE.md").read_text() == RULES, report


BROKEN = 'name = "unfinished\n'  # not TOML: the loader's problem goes back to the agent


@pytest.mark.parametrize("agent", ("codex", "gemini", "copilot", "droid"))
def test_a_correction_goes_back_to_the_same_session(private_session, agent):
    """The first write does not load; the correction is sent to the session the agent named (its
    history holds the first write), except droid's, which is given the whole task again."""
    session = private_session(agent)
    (session.project / "CLAUDE.md").write_text(RULES)
    tmp = str(session.project / "cupcake.toml.tmp")
    done, standin = run_init(session, agent, [write_turn(agent, tmp, BROKEN), Text("Wrote it.")], "--attempts", "2")
    report = f"exit {done.returncode}\nstdout: {done.stdout[-4000:]}\nstderr: {done.stderr[-4000:]}"
    assert done.returncode == 1 and "Attempt 2 of 2" in done.stdout, report  # the stateless model never fixes it
    last = standin.main_loop_requests[-1]
    text = json.dumps(last.body)
    assert "cupcake.toml.tmp" in text and "Never run" in text, report  # the problem went back, with the task
    # a session started afresh begins with no tool result in its history: once, or once per run
    fresh = [r for r in standin.main_loop_requests if not standin.results_in(r)]
    assert len(fresh) == (2 if agent == "droid" else 1), report
