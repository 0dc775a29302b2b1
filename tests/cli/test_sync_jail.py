"""`cupcake sync --agent NAME --sandbox` turns the OS layer on, `--sandbox --uninstall` takes it off, and
`cupcake doctor` says per agent which layer guards Cupcake's files: through the installed executable."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import cupcake_executable
from tests.jail.conftest import need_bwrap

PRE_TOOL = {"gemini": "BeforeTool", "codex": "PreToolUse", "copilot": "preToolUse", "droid": "PreToolUse"}


def _cupcake(project, *args, wrap=None):
    argv = [cupcake_executable(), *args]
    if wrap:
        argv = [*wrap, *argv]
    return subprocess.run(argv, cwd=project.root, env=project.env(), capture_output=True, text=True, timeout=120)


def _commands(path) -> dict:
    """The agent's event -> Cupcake's hook command, from its hook file."""
    data = json.loads(path.read_text())
    out = {}
    for event, items in data["hooks"].items():
        for item in items:
            for handler in item.get("hooks", [item]):
                command = handler.get("command") or handler.get("bash")
                if command and "cupcake" in command:
                    out[event] = command
    return out


HOOK_FILES = {
    "gemini": ".gemini/settings.json",
    "codex": ".codex/hooks.json",
    "copilot": ".github/hooks/cupcake.json",
    "droid": ".factory/settings.json",
}


@pytest.fixture
def synced(project):
    need_bwrap()
    project.write_policy("")
    return project


@pytest.mark.parametrize("agent", sorted(HOOK_FILES))
def test_sandbox_puts_the_jail_on_the_before_tool_hook_only(synced, agent):
    done = _cupcake(synced, "sync", "--agent", agent, "--sandbox")
    assert done.returncode == 0, done.stderr
    assert "OS layer: jailed" in done.stdout and f"cupcake sync --agent {agent} --sandbox --uninstall" in done.stdout
    commands = _commands(synced.root / HOOK_FILES[agent])
    pre = commands.pop(PRE_TOOL[agent])
    assert pre.startswith(f"cupcake run --agent {agent} --event {PRE_TOOL[agent]} --jail || {{ s=$?;")
    assert "exit 2; }" in pre and "outside its jail" in pre  # a Cupcake that cannot run blocks: it would run unjailed
    assert commands and not any("--jail" in c for c in commands.values())


def test_sync_twice_changes_nothing_a_plain_sync_keeps_the_layer_and_uninstall_takes_it_off(synced):
    hooks = synced.root / ".gemini" / "settings.json"
    assert _cupcake(synced, "sync", "--agent", "gemini", "--sandbox").returncode == 0
    on = hooks.read_text()
    again = _cupcake(synced, "sync", "--agent", "gemini", "--sandbox")
    assert hooks.read_text() == on and "already up to date" in again.stdout
    plain = _cupcake(synced, "sync", "--agent", "gemini")
    assert hooks.read_text() == on, plain.stdout
    off = _cupcake(synced, "sync", "--agent", "gemini", "--sandbox", "--uninstall")
    assert off.returncode == 0 and "OS layer: off for Gemini CLI" in off.stdout
    assert "--jail" not in hooks.read_text() and "cupcake run --agent gemini" in hooks.read_text()
    assert _cupcake(synced, "sync", "--agent", "gemini", "--uninstall").returncode == 0
    assert "cupcake" not in hooks.read_text()


def test_dry_run_shows_the_flag_and_writes_nothing(synced):
    done = _cupcake(synced, "sync", "--agent", "droid", "--sandbox", "--dry-run")
    assert done.returncode == 0
    assert "--jail ||" in done.stdout and "(dry run: nothing was written)" in done.stdout
    assert not (synced.root / ".factory").exists() and not (synced.root / ".cupcake").exists()


def test_unshare_net_writes_the_offline_jail(synced):
    assert _cupcake(synced, "sync", "--agent", "gemini", "--sandbox", "--unshare-net").returncode == 0
    assert "--jail-unshare-net ||" in _commands(synced.root / ".gemini" / "settings.json")["BeforeTool"]


def test_codex_own_sandbox_is_turned_off_and_put_back(synced):
    config = synced.root / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "x"\nsandbox_mode = "workspace-write"\n\n[features]\na = 1\n')
    done = _cupcake(synced, "sync", "--agent", "codex", "--sandbox")
    assert done.returncode == 0, done.stderr
    assert "Turned Codex's own sandbox off in .codex/config.toml." in done.stdout
    assert "What this trades" in done.stdout and "--unshare-net" in done.stdout
    assert 'sandbox_mode = "danger-full-access"' in config.read_text()
    assert "[features]\na = 1\n" in config.read_text()
    assert _cupcake(synced, "sync", "--agent", "codex", "--sandbox", "--uninstall").returncode == 0
    assert config.read_text() == 'model = "x"\nsandbox_mode = "workspace-write"\n\n[features]\na = 1\n'


def test_a_codex_config_sync_created_is_removed_with_the_layer(synced):
    assert _cupcake(synced, "sync", "--agent", "codex", "--sandbox").returncode == 0
    assert (synced.root / ".codex" / "config.toml").exists()
    assert _cupcake(synced, "sync", "--agent", "codex", "--uninstall").returncode == 0
    assert not (synced.root / ".codex" / "config.toml").exists()


def test_sync_refuses_when_the_jail_cannot_start_and_changes_nothing(synced):
    """User namespaces switched off (in a user namespace of the test's own): the cause and the fix."""
    wrap = ["unshare", "-U", "-r", "/bin/sh", "-c", 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"', "sh"]
    done = _cupcake(synced, "sync", "--agent", "gemini", "--sandbox", wrap=wrap)
    assert done.returncode == 1
    assert "Cupcake's jail cannot start here: user namespaces are switched off" in done.stderr
    assert "sysctl -w user.max_user_namespaces=15000" in done.stderr and "Nothing was changed" in done.stderr
    assert not (synced.root / ".gemini").exists()


def test_claude_code_its_own_sandbox_or_cupcakes_jail(synced):
    both = _cupcake(synced, "sync", "--sandbox", "--jail")
    assert both.returncode == 2 and "pick one" in both.stderr
    done = _cupcake(synced, "sync", "--jail")
    assert done.returncode == 0, done.stderr
    assert "OS layer: jailed" in done.stdout and "cupcake sync --jail --uninstall" in done.stdout
    settings = json.loads((synced.root / ".claude" / "settings.json").read_text())
    pre = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    post = settings["hooks"]["PostToolUse"][0]["hooks"][0]["command"]
    assert pre.startswith("cupcake run --event PreToolUse --jail || { s=$?;") and "--jail" not in post
    doctor = _cupcake(synced, "doctor")
    assert "protection level: jailed (Cupcake's jail" in doctor.stdout
    off = _cupcake(synced, "sync", "--jail", "--uninstall")
    assert off.returncode == 0 and "--jail" not in (synced.root / ".claude" / "settings.json").read_text()


def test_doctor_says_per_agent_which_layer_and_how_to_raise_it(synced):
    assert _cupcake(synced, "sync", "--agent", "gemini", "--sandbox").returncode == 0
    assert _cupcake(synced, "sync", "--agent", "droid").returncode == 0
    report = _cupcake(synced, "doctor").stdout
    assert "os layer gemini: Gemini CLI: OS layer: jailed (Cupcake's jail: shell commands cannot write" in report
    assert "os layer droid: Factory droid: OS layer: hook only" in report
    assert "To raise it to jailed: `cupcake sync --agent droid --sandbox`" in report


def test_doctor_finds_a_jail_that_cannot_start_first(synced):
    assert _cupcake(synced, "sync", "--agent", "gemini", "--sandbox").returncode == 0
    wrap = ["unshare", "-U", "-r", "/bin/sh", "-c", 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"', "sh"]
    report = _cupcake(synced, "doctor", wrap=wrap)
    assert report.returncode == 1
    assert (
        "problem  os layer gemini: Gemini CLI: the OS layer is on, but Cupcake's jail cannot start here"
        in report.stdout
    )
    assert "every shell call is refused" in report.stdout and "max_user_namespaces" in report.stdout


def test_doctor_finds_codex_own_sandbox_in_the_way(synced):
    assert _cupcake(synced, "sync", "--agent", "codex", "--sandbox").returncode == 0
    config = synced.root / ".codex" / "config.toml"
    config.write_text('sandbox_mode = "workspace-write"\n')  # a person put it back by hand
    report = _cupcake(synced, "doctor").stdout
    assert 'Codex: its own sandbox is on (sandbox_mode = "workspace-write"' in report
    assert "run `cupcake sync --agent codex --sandbox`" in report
