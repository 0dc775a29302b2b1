"""The hook command `cupcake sync` writes, through the installed executable in fresh processes: it never
lets a call through because the agent started without Cupcake, and a team-shared file holds no path of
this machine (issue 24, items 2 and 6)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from cupcake.agents import adapter
from cupcake.agents.installers import hooks, installer

CUPCAKE = os.path.join(os.path.dirname(sys.executable), "cupcake")
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"  # what a desktop-started agent may have: no virtual environment
AGENTS = ("claude", "codex", "gemini", "copilot", "droid", "cursor")
POLICY = '[[policy]]\nname = "no rm"\nconditions = [{ type = "command_regex", value = "rm -rf" }]\naction = { type = "block_with_feedback", feedback_message = "no rm -rf" }\n'


@pytest.fixture
def project(tmp_path):
    root = (tmp_path / "team-project").resolve()
    root.mkdir()
    (tmp_path / "home").mkdir()
    (root / "cupcake.toml").write_text(POLICY)
    return root


def cupcake(project, *args, path=None):
    env = {"HOME": str(project.parent / "home"), "PATH": path or os.path.dirname(CUPCAKE) + ":" + SYSTEM_PATH}
    return subprocess.run([CUPCAKE, *args], cwd=project, env=env, capture_output=True, text=True, timeout=120)


def before_tool_hook(project, agent) -> tuple[str, dict]:
    """(the agent's before-tool hook command from its project file, a payload asking to run ``ls``)."""
    from tests.agents.test_one_policy import Wire

    wire = Wire(type("P", (), {"root": project, "cwd": project})(), agent)
    path = installer(agent).config_path("project", str(project), {"HOME": str(project.parent / "home")})
    event = adapter(agent).CAPABILITIES["PreToolUse"]["agent_events"][0]
    command = next(c for e, c, _t in hooks(agent, path) if e == event)
    return command, wire.shell("ls")


@pytest.mark.parametrize("agent", AGENTS)
def test_an_agent_started_without_cupcake_on_its_path_is_blocked_with_the_reason(project, agent):
    done = cupcake(project, "sync", "--agent", agent)
    assert done.returncode == 0, done.stderr
    command, payload = before_tool_hook(project, agent)
    env = {"HOME": str(project.parent / "home"), "PATH": SYSTEM_PATH}
    ran = subprocess.run(
        ["sh", "-c", command], input=json.dumps(payload), cwd=project, env=env, capture_output=True, text=True
    )
    assert ran.returncode == 2, (command, ran)  # every agent's blocking exit; 127 would let the call through
    assert "this hook could not run cupcake (exit 127" in ran.stderr
    assert "where every shell finds it (with pipx or uv tool)" in ran.stderr


@pytest.mark.parametrize("agent", AGENTS)
def test_with_cupcake_on_its_path_the_same_hook_answers_as_cupcake(project, agent):
    assert cupcake(project, "sync", "--agent", agent).returncode == 0
    command, payload = before_tool_hook(project, agent)
    env = {"HOME": str(project.parent / "home"), "PATH": os.path.dirname(CUPCAKE) + ":" + SYSTEM_PATH}
    ran = subprocess.run(
        ["sh", "-c", command], input=json.dumps(payload), cwd=project, env=env, capture_output=True, text=True
    )
    assert ran.returncode == 0 and ran.stdout == "" and "could not run" not in ran.stderr, ran


def test_a_personal_hook_whose_installation_is_gone_blocks_too(project, tmp_path):
    """Local scope names this installation's path; a deleted virtual environment must not fail open."""
    gone = tmp_path / "old-venv" / "bin"
    gone.mkdir(parents=True)
    fake = gone / "cupcake"
    shutil.copy(CUPCAKE, fake)
    assert cupcake(project, "sync", "--scope", "local", "--command", str(fake)).returncode == 0
    shutil.rmtree(tmp_path / "old-venv")
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    ran = subprocess.run(["sh", "-c", command], input="{}", cwd=project, capture_output=True, text=True)
    assert ran.returncode == 2 and f"could not run {fake}" in ran.stderr, ran


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_team_shared_file_holds_no_machine_path_and_git_sees_nothing_else(project):
    home = project.parent / "home"
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    assert cupcake(project, "sync").returncode == 0
    (project / "cupcake.toml").write_text(POLICY + "\n# changed\n")
    done = cupcake(project, "sync")  # again: the previous settings are kept as .bak
    assert done.returncode == 0, done.stderr
    shared = (project / ".claude" / "settings.json").read_text()
    for machine in (str(project), str(home), sys.prefix, os.path.dirname(CUPCAKE)):
        assert machine not in shared, machine
    claude = project / ".claude"
    beside = sorted(p.name for p in claude.iterdir())
    assert "settings.json" in beside and len(beside) > 1, beside  # the backup, the personal file, the record
    env = dict(os.environ, GIT_CONFIG_GLOBAL=os.devnull, HOME=str(home))
    added = subprocess.run(
        ["git", "add", "--dry-run", "--all", "."], cwd=project, env=env, capture_output=True, text=True, check=True
    )
    listed = sorted(line.split("'")[1] for line in added.stdout.splitlines())
    assert listed == [".claude/settings.json", ".gitignore", "cupcake.toml"], added.stdout


def test_doctor_says_what_a_fresh_login_shell_finds(project):
    home = project.parent / "home"
    assert cupcake(project, "sync").returncode == 0
    (home / ".profile").write_text(f'PATH="{SYSTEM_PATH}"\nexport PATH\n')
    env_path = os.path.dirname(CUPCAKE) + ":" + SYSTEM_PATH
    done = subprocess.run(
        [CUPCAKE, "doctor"],
        cwd=project,
        env={"HOME": str(home), "PATH": env_path, "SHELL": "/bin/sh"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "a fresh login shell does not find `cupcake` (only this shell's PATH does)" in done.stdout, done.stdout
    (home / ".profile").write_text(f'PATH="{os.path.dirname(CUPCAKE)}:$PATH"\nexport PATH\n')
    done = subprocess.run(
        [CUPCAKE, "doctor"],
        cwd=project,
        env={"HOME": str(home), "PATH": env_path, "SHELL": "/bin/sh"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "a fresh login shell finds `cupcake` there too" in done.stdout, done.stdout
