"""Cupcake as the hook of the real Gemini CLI, Codex, Copilot CLI and droid, offline.

`cupcake sync --agent NAME` writes the agent's hook file (as a user would), then the pinned client
runs headless against the scripted stand-in. Each agent gets three sessions:
1. one model turn after another: an allowed command (and a PostToolUse run_command that sees it), an
   `rm -rf` (blocked, the team's message reaches the model), a command that draws soft feedback, and
   the agent's shell writing cupcake.toml (self-protection);
2. fail_mode = "closed" with a broken policy: the shell call is blocked;
3. fail_mode = "closed" and the executable missing: the hook command's own tail blocks, with a reason.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from cupcake.live.standin import Shell, Text

from ...conftest import cupcake_executable

pytestmark = pytest.mark.real_client

AGENTS = ("gemini", "codex", "copilot", "droid")
TEAM = "The team does not allow rm -rf."
SOFT = "Prefer make targets over raw scripts."

POLICY = f"""
[[policy]]
name = "no-rm-rf"
matcher = "Bash"
conditions = [{{ type = "command_regex", value = 'rm\\s+-rf' }}]
action = {{ type = "block_with_feedback", feedback_message = "{TEAM}" }}

[[policy]]
name = "scripts"
matcher = "Bash"
conditions = [{{ type = "command_regex", value = '^sh scripts/' }}]
action = {{ type = "provide_feedback", message = "{SOFT}" }}

[[policy]]
name = "log-after-shell"
hook_event = "PostToolUse"
matcher = "Bash"
action = {{ type = "run_command", command = "sh -c 'printf %s \\"$1\\" >> .cupcake-post.log' x {{{{command}}}}", on_failure = "ignore" }}
"""


def sync(session, agent: str, *extra: str) -> subprocess.CompletedProcess:
    env = {**session.base_environment(), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    if agent == "codex":
        env.update(session.codex_env())
        env["PATH"] = f"{session.executable.parent}{os.pathsep}{env['PATH']}"  # `codex` for --trust
    args = [cupcake_executable(), "sync", "--agent", agent, *extra]
    done = subprocess.run(args, cwd=session.project, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def _sync_default(session, agent: str, command: str | None = None) -> None:
    extra = ["--command", command or cupcake_executable()]
    if agent == "codex":
        extra.append("--trust")  # Codex skips untrusted hooks without a word
    sync(session, agent, *extra)


@pytest.mark.parametrize("agent", AGENTS)
def test_block_allow_soft_feedback_post_check_and_self_protection(agent_session, agent):
    session = agent_session(agent)
    (session.project / "cupcake.toml").write_text(POLICY)
    _sync_default(session, agent)
    (session.project / "build").mkdir()
    run = session.run(
        [
            Shell("echo allowed > allowed.txt"),
            Shell("rm -rf build"),
            Shell("sh scripts/release.sh"),
            Shell("echo '# gone' > cupcake.toml"),
            Text("Done."),
        ]
    )
    assert run.returncode == 0, run.describe()
    shown = [r.text for r in run.tool_results]
    assert len(shown) == 4, run.describe()
    # allow: the command ran, and the PostToolUse check saw it
    assert (session.project / "allowed.txt").exists(), run.describe()
    assert "echo allowed > allowed.txt" in (session.project / ".cupcake-post.log").read_text()
    # block: the team's message reached the model, the directory is still there
    assert TEAM in shown[1], run.describe()
    assert (session.project / "build").is_dir()
    # soft feedback reached the model
    assert SOFT in shown[2], run.describe()
    # self-protection: the agent's shell may not write the policy file
    assert "Cupcake self-protection" in shown[3], run.describe()
    assert (session.project / "cupcake.toml").read_text() == POLICY


@pytest.mark.parametrize("agent", AGENTS)
def test_a_broken_policy_in_closed_mode_blocks(agent_session, agent):
    session = agent_session(agent)
    (session.project / "cupcake.toml").write_text('[settings]\nfail_mode = "closed"\n' + POLICY)
    _sync_default(session, agent)
    (session.project / "cupcake.toml").write_text(
        '[settings]\nfail_mode = "closed"\n\n[[policy]]\nname = "broken"\nmatcher = "("\n'
        'action = { type = "block_with_feedback", feedback_message = "x" }\n'
    )
    run = session.run([Shell("echo ran > ran.txt"), Text("Done.")])
    assert run.returncode == 0, run.describe()
    assert not (session.project / "ran.txt").exists(), run.describe()
    _blocked_before_the_shell_ran(run, "out of service until fixed")


def _blocked_before_the_shell_ran(run, reason: str) -> None:
    """Blocked at the tool call with the reason shown to the model, or already at the prompt (every
    one of these agents blocks its prompt event too, and then the model is never asked)."""
    if run.tool_results:
        assert reason in run.shown_after_tool, run.describe()
    else:
        assert not run.main_loop_requests or reason in run.stdout + run.stderr, run.describe()


@pytest.mark.parametrize("agent", AGENTS)
def test_a_missing_cupcake_blocks_in_open_mode_too(agent_session, agent, tmp_path):
    """The default mode: an executable the agent cannot start (exit 127, a non-blocking error to every
    agent) must not let the call through; the hook says why."""
    session = agent_session(agent)
    (session.project / "cupcake.toml").write_text(POLICY)
    _sync_default(session, agent, command=str(tmp_path / "nowhere" / "cupcake"))
    run = session.run([Shell("echo ran > ran.txt"), Text("Done.")])
    assert run.returncode == 0, run.describe()
    assert not (session.project / "ran.txt").exists(), run.describe()
    if agent != "copilot":  # Copilot shows the model only the exit code of a hook that exits 2
        _blocked_before_the_shell_ran(run, "this hook could not run")


@pytest.mark.parametrize("agent", AGENTS)
def test_closed_mode_blocks_when_cupcake_is_missing(agent_session, agent, tmp_path):
    session = agent_session(agent)
    (session.project / "cupcake.toml").write_text('[settings]\nfail_mode = "closed"\n' + POLICY)
    _sync_default(session, agent, command=str(tmp_path / "nowhere" / "cupcake"))
    run = session.run([Shell("echo ran > ran.txt"), Text("Done.")])
    assert run.returncode == 0, run.describe()
    assert not (session.project / "ran.txt").exists(), run.describe()
    if agent != "copilot":  # Copilot shows the model only the exit code of a hook that exits 2
        _blocked_before_the_shell_ran(run, "fail_mode is 'closed'")
