"""`cupcake sync` writes Claude Code's own protections for Cupcake's files, and `--uninstall`
takes out exactly what it added (through the installed executable, a fresh process each time)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

CUPCAKE = os.path.join(os.path.dirname(sys.executable), "cupcake")
POLICY = '[[policy]]\nname = "no rm"\nconditions = [{ type = "command_regex", value = "rm" }]\naction = { type = "block_with_feedback", feedback_message = "no" }\n'
ORIGINAL = '{\n    "model": "x",\n    "permissions": {"deny": ["Bash(curl *)"], "allow": []},\n    "sandbox": {"enabled": false}\n}\n'


def _run(args, project, home, path=None):
    env = {"HOME": str(home), "PATH": path or os.environ.get("PATH", "/usr/bin:/bin")}
    return subprocess.run([CUPCAKE, *args], cwd=project, env=env, capture_output=True, text=True, timeout=60)


@pytest.fixture
def project(tmp_path):
    root = (tmp_path / "p").resolve()
    root.mkdir()
    (tmp_path / "h").mkdir()
    (root / "cupcake.toml").write_text(POLICY)
    return root


def test_sync_writes_deny_rules_and_deny_write_paths_into_the_personal_file(project):
    """They name this machine's paths, so they go beside the team-shared file, never into it."""
    done = _run(["sync"], project, project.parent / "h")
    assert done.returncode == 0, done.stderr
    shared = (project / ".claude" / "settings.json").read_text()
    assert str(project) not in shared and str(project.parent / "h") not in shared and sys.prefix not in shared
    assert set(json.loads(shared)) == {"hooks"}
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    deny = settings["permissions"]["deny"]
    assert f"Edit(/{project}/cupcake.toml)" in deny
    assert f"Edit(/{project}/.cupcake)" in deny
    assert f"Edit(/{project}/.claude/settings*.json)" in deny
    written = settings["sandbox"]["filesystem"]["denyWrite"]
    for path in (project / "cupcake.toml", project / ".cupcake", project / ".claude"):
        assert str(path) in written
    assert "enabled" not in settings["sandbox"]  # only --sandbox turns it on
    assert "autoAllowBashIfSandboxed" not in settings["sandbox"]
    assert "hook only" in done.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox's programs are checked on Linux")
def test_sync_sandbox_refuses_without_bubblewrap_and_socat(project, tmp_path):
    bare = tmp_path / "bin"
    bare.mkdir()
    done = _run(["sync", "--sandbox"], project, project.parent / "h", path=str(bare))
    assert done.returncode == 1
    assert "bwrap and socat" in done.stderr and "apt-get install bubblewrap socat" in done.stderr
    assert not (project / ".claude" / "settings.json").exists()


@pytest.mark.skipif(not (shutil.which("bwrap") and shutil.which("socat")), reason="needs bubblewrap and socat")
def test_sync_sandbox_then_uninstall_leaves_the_file_byte_for_byte(project):
    home = project.parent / "h"
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(ORIGINAL)
    done = _run(["sync", "--sandbox"], project, home)
    assert done.returncode == 0, done.stderr
    shared = json.loads((project / ".claude" / "settings.json").read_text())
    assert shared["sandbox"] == {"enabled": False} and shared["permissions"]["deny"] == ["Bash(curl *)"]
    settings = json.loads((project / ".claude" / "settings.local.json").read_text())
    assert settings["sandbox"]["enabled"] is True  # the personal file wins over the shared one in Claude Code
    again = _run(["sync", "--sandbox"], project, home)
    assert "already up to date" in again.stdout
    doctor = _run(["doctor"], project, home)
    assert "protection level: sandboxed" in doctor.stdout
    gone = _run(["sync", "--uninstall"], project, home)
    assert gone.returncode == 0, gone.stderr
    assert (project / ".claude" / "settings.json").read_text() == ORIGINAL
    assert json.loads((project / ".claude" / "settings.local.json").read_text()) == {}
    assert not (project / ".claude" / ".cupcake-sync.settings.local.json").exists()


def test_an_older_syncs_protections_move_out_of_the_shared_file(project):
    """Older Cupcakes wrote them into .claude/settings.json (with its record beside it): the next sync
    takes exactly those out of the shared file, and writes them into the personal one."""
    home = project.parent / "h"
    claude = project / ".claude"
    claude.mkdir()
    old_rule = f"Edit(/{project}/cupcake.toml)"
    (claude / "settings.json").write_text(json.dumps({"permissions": {"deny": ["Bash(curl *)", old_rule]}}))
    (claude / ".cupcake-sync.settings.json").write_text(
        json.dumps({"created": [], "deny": [old_rule], "deny_write": []})
    )
    assert _run(["sync"], project, home).returncode == 0
    shared = json.loads((claude / "settings.json").read_text())
    assert shared["permissions"]["deny"] == ["Bash(curl *)"] and "hooks" in shared
    assert not (claude / ".cupcake-sync.settings.json").exists()
    assert old_rule in json.loads((claude / "settings.local.json").read_text())["permissions"]["deny"]


def test_uninstall_keeps_a_rule_the_user_had_written_before(project):
    home = project.parent / "h"
    (project / ".claude").mkdir()
    mine = f'{{"permissions": {{"deny": ["Edit(/{project}/cupcake.toml)"]}}}}\n'
    (project / ".claude" / "settings.json").write_text(mine)
    assert _run(["sync"], project, home).returncode == 0
    assert _run(["sync", "--uninstall"], project, home).returncode == 0
    assert (project / ".claude" / "settings.json").read_text() == mine


def test_doctor_reports_hook_only_and_how_to_raise_it(project):
    home = project.parent / "h"
    _run(["sync"], project, home)
    done = _run(["doctor"], project, home)
    assert "protection level: hook only" in done.stdout
    assert "cupcake sync --sandbox" in done.stdout
