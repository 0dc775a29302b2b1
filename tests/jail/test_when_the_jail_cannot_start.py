"""When the jail cannot start, the command is not run: the hook blocks it where it can see why, and the
launcher refuses where only it can, each time naming the cause and the fix. Each case is made real in a
mount or user namespace of its own (bubblewrap hidden or broken, user namespaces switched off, a
sandbox around the command), through the installed executable and real bash."""

from __future__ import annotations

import json
import os
import shlex
import subprocess

import pytest

from tests.conftest import cupcake_executable

REFUSED = 126


def _as_root():
    if os.geteuid() != 0:
        pytest.skip("making bubblewrap disappear in a mount namespace of one's own needs root")


def _in_namespace(jail, setup: str, then: str):
    """``then`` run by bash in a private mount namespace prepared by ``setup`` (nothing outlives it)."""
    script = f"{setup}\n{then}"
    done = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "/bin/bash", "-c", script],
        cwd=jail.project.root,
        env=jail.project.env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done


HIDE_BWRAP = "mount --bind /dev/null /usr/bin/bwrap"


def test_no_bubblewrap_the_hook_blocks_with_the_fix(jail):
    _as_root()
    payload = jail.project.tool_call("Bash", {"command": "echo ran > ran.txt"})
    hook = shlex.join([cupcake_executable(), "run", "--agent", "codex", "--event", "PreToolUse", "--jail"])
    done = _in_namespace(jail, HIDE_BWRAP, f"printf '%s' {shlex.quote(json.dumps(payload))} | {hook}")
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny"
    reason = answer["permissionDecisionReason"]
    assert "bubblewrap is not installed" in reason and "sudo apt-get install bubblewrap" in reason
    assert "never on the agent's PATH" in reason


def test_no_bubblewrap_when_the_command_starts_the_launcher_refuses(jail):
    """The answer came while bubblewrap was there; by the time the command starts it is gone."""
    _as_root()
    line = jail.command("echo ran > ran.txt")
    done = _in_namespace(jail, HIDE_BWRAP, line)
    assert done.returncode == REFUSED
    assert "Cupcake jail: the command was not run: bubblewrap is not installed at /usr/bin/bwrap" in done.stderr
    assert "sudo apt-get install bubblewrap" in done.stderr
    assert "cupcake sync --agent codex --sandbox --uninstall" in done.stderr
    assert not (jail.project.root / "ran.txt").exists()


def test_a_broken_bubblewrap_the_command_is_not_run(jail, tmp_path):
    _as_root()
    broken = tmp_path / "broken-bwrap"
    broken.write_text("#!/bin/sh\necho 'bwrap: something is wrong' >&2\nexit 1\n")
    broken.chmod(0o755)
    line = jail.command("echo ran > ran.txt")
    done = _in_namespace(jail, f"mount --bind {broken} /usr/bin/bwrap", line)
    assert done.returncode == REFUSED
    assert "bwrap: something is wrong" in done.stderr  # bubblewrap's own words first
    assert "Cupcake jail: the command was not run: bubblewrap could not set up the jail" in done.stderr
    assert not (jail.project.root / "ran.txt").exists()


def test_user_namespaces_switched_off_names_the_setting(jail):
    line = jail.command("echo ran > ran.txt")
    script = f"echo 0 > /proc/sys/user/max_user_namespaces && {line}"
    done = subprocess.run(
        ["unshare", "-U", "-r", "/bin/bash", "-c", script],
        cwd=jail.project.root,
        env=jail.project.env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == REFUSED, done
    assert "user namespaces are switched off on this machine (user.max_user_namespaces = 0)" in done.stderr
    assert "sysctl -w user.max_user_namespaces=15000" in done.stderr
    assert not (jail.project.root / "ran.txt").exists()


def test_inside_another_sandbox_that_forbids_a_jail(jail):
    """As Codex's own sandbox does: the command already runs in a user namespace that allows no other."""
    line = jail.command("echo ran > ran.txt")
    outer = ["/usr/bin/bwrap", "--unshare-user", "--disable-userns", "--dev-bind", "/", "/", "/bin/bash", "-c", line]
    done = subprocess.run(outer, cwd=jail.project.root, env=jail.project.env(), capture_output=True, text=True)
    assert done.returncode == REFUSED, done
    assert "already runs inside another sandbox" in done.stderr
    assert "--sandbox` writes a combination that works" in done.stderr
    assert not (jail.project.root / "ran.txt").exists()


def test_policy_files_changed_after_the_answer(jail):
    line = jail.command("echo ran > ran.txt")
    jail.policy.write_text(jail.policy.read_text() + "\n# a person edits the policy\n")
    ran = jail.bash(line)
    assert ran.code == REFUSED
    assert "policy files changed after the hook approved this command" in ran.stderr
    assert "run the command again" in ran.stderr
    assert not (jail.project.root / "ran.txt").exists()
    assert jail.run("echo ran > ran.txt").code == 0  # asked again, it runs
    assert (jail.project.root / "ran.txt").read_text() == "ran\n"


def test_a_changed_jail_description_is_refused(jail):
    line = jail.command("echo ran > ran.txt")
    spec = next((jail.project.root / ".cupcake" / "jail").glob("*.spec"))
    data = spec.read_bytes()
    spec.write_bytes(data.replace(b"\0dir\0", b"\0existing\0", 1))  # weaker: as a planted file would be
    ran = jail.bash(line)
    assert ran.code == REFUSED
    assert "does not match its name (it was changed)" in ran.stderr
    assert not (jail.project.root / "ran.txt").exists()


def test_a_run_that_cannot_read_the_call_blocks_it(jail):
    """A failure under the OS layer blocks, whatever fail_mode says: "open" would run the call unjailed."""
    broken = jail.project.send_process(b"{not json", args=["--event", "PreToolUse", "--agent", "codex", "--jail"])
    assert broken.specific["permissionDecision"] == "deny", broken
    reason = broken.specific["permissionDecisionReason"]
    assert reason.startswith("Cupcake's OS layer: Cupcake could not tell which tool this call is for (")
    assert "not valid JSON" in reason
    plain = jail.project.send_process(b"{not json", args=["--event", "PreToolUse", "--agent", "codex"])
    assert "permissionDecision" not in plain.stdout.decode()  # without the layer: fail_mode "open" lets it by
