"""`cupcake doctor --live` through the installed executable, against the pinned clients the real-client
tests install: it proves a deny blocks and an allow runs, reports the version, and says clearly when the
agent is missing, misbehaves, ignores the hooks, or hangs."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from tests.conftest import cupcake_executable

from .agents.conftest import agent_executable

pytestmark = pytest.mark.real_client


def live(tmp_path: Path, path_dirs, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """The person runs `cupcake doctor --live …` from an ordinary directory, with this PATH."""
    home = tmp_path / "person-home"
    home.mkdir(exist_ok=True)
    env = {"PATH": os.pathsep.join([*map(str, path_dirs), "/usr/bin", "/bin"]), "HOME": str(home)}
    return subprocess.run(
        [cupcake_executable(), "doctor", "--live", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def fake_agent(tmp_path: Path, name: str, body: str) -> Path:
    folder = tmp_path / f"fake-{name}"
    folder.mkdir(exist_ok=True)
    script = folder / name
    script.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo '9.9.9 (fake)'; exit 0; fi\n" + body)
    script.chmod(0o755)
    return folder


def test_claude_code_and_gemini_cli_block_the_deny_and_run_the_allow(claude_client, tmp_path):
    gemini = agent_executable("gemini")
    done = live(tmp_path, [claude_client.parent, gemini.parent], "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    found = {a["agent"]: a for a in json.loads(done.stdout)["agents"]}
    assert (found["claude"]["version"], found["gemini"]["version"]) == ("2.1.328", "0.61.0")
    for agent in found.values():
        assert [f["status"] for f in agent["findings"]] == ["ok", "ok"], agent
        assert "a sample deny blocked" in agent["findings"][0]["message"]
        assert "a sample allow ran" in agent["findings"][1]["message"]
    assert not list(tmp_path.glob("*.txt"))  # everything happened in a throwaway project


def test_an_agent_that_ignores_the_hooks_is_caught(claude_client, tmp_path):
    folder = tmp_path / "wrapped"
    folder.mkdir()
    wrapper = folder / "claude"
    wrapper.write_text(f'#!/bin/sh\nexec {claude_client} --settings \'{{"disableAllHooks": true}}\' "$@"\n')
    wrapper.chmod(0o755)
    done = live(tmp_path, [folder], "--agent", "claude")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "problem  live claude: a sample deny did NOT block in Claude Code 2.1.328: the command ran" in done.stdout


def test_a_missing_agent_is_named_with_how_to_install_it(tmp_path):
    done = live(tmp_path, [], "--agent", "gemini", timeout=60)
    assert done.returncode == 1
    assert "problem  live gemini: Gemini CLI (`gemini`) is not installed on this PATH" in done.stdout
    assert "fix: install it (npm install -g @google/gemini-cli), or pass --agent-path" in done.stdout


def test_an_agent_that_fails_or_hangs_is_reported_within_the_time_out(tmp_path):
    failing = fake_agent(tmp_path, "claude", "echo 'no credentials' >&2\nexit 3\n")
    done = live(tmp_path, [failing], "--agent", "claude", timeout=60)
    assert done.returncode == 1
    assert "problem  live claude: Claude Code 9.9.9 exited 3: no credentials" in done.stdout
    hanging = fake_agent(tmp_path, "gemini", "sleep 600\n")
    started = time.monotonic()
    done = live(tmp_path, [hanging], "--agent", "gemini", "--timeout", "5", timeout=60)
    assert time.monotonic() - started < 30
    assert done.returncode == 1
    assert "did not finish within 5 s and was stopped" in done.stdout


def test_an_agent_it_cannot_run_live_is_refused_plainly(tmp_path):
    done = live(tmp_path, [], "--agent", "copilot", timeout=60)
    assert done.returncode == 2 and "'copilot' is not supported (it runs claude, gemini)" in done.stderr


# -- features/doctor_live.feature ------------------------------------------------------------------

scenarios("doctor_live.feature")


@pytest.fixture
def person_path() -> list:
    return []


@given("Claude Code is installed on the person's PATH")
def _(person_path, claude_client):
    """The pinned Claude Code's directory is on the PATH the person's shell has."""
    person_path.append(claude_client.parent)


@given("Gemini CLI is installed on the person's PATH")
def _(person_path):
    """The pinned Gemini CLI's directory is on the PATH the person's shell has."""
    person_path.append(agent_executable("gemini").parent)


@when(parsers.parse('the person runs "cupcake doctor {arguments}"'), target_fixture="live_run")
def _(tmp_path, person_path, arguments):
    """The installed `cupcake doctor …`, from an ordinary directory, with that PATH."""
    return live(tmp_path, person_path, *arguments.split()[1:]) if arguments.startswith("--live") else None


@then(parsers.parse('the live check says "{text}"'))
def _(live_run, text):
    """The check's output holds the text."""
    assert text in live_run.stdout, live_run.stdout + live_run.stderr


@then("the live check passes")
def _(live_run):
    """Exit code 0: every finding is ok."""
    assert live_run.returncode == 0, live_run.stdout + live_run.stderr


@then("the live check fails")
def _(live_run):
    """Exit code 1: a problem was found."""
    assert live_run.returncode == 1, live_run.stdout + live_run.stderr
