"""`cupcake sync --scope managed` and what doctor says about the managed tier, through the installed
executable, in the tests' stand-in system root (never this machine's /etc)."""

from __future__ import annotations

import json
import os
import stat
import subprocess

import pytest

from cupcake.agents.managed import LOCATIONS
from tests.conftest import cupcake_executable

MANAGED = (
    '[settings]\nfail_mode = "closed"\nhook_timeout_seconds = 120\n\n[[policy]]\nname = "no-prod-deploy"\nmatcher = "Bash"\n'
    'conditions = [{ type = "command_regex", value = "--env prod" }]\n'
    'action = { type = "block_with_feedback", feedback_message = "Production deploys go through the release pipeline." }\n'
)


def cupcake(project, *args):
    return subprocess.run(
        [cupcake_executable(), *args], cwd=project.root, env=project.env(), capture_output=True, text=True, timeout=120
    )


def managed_file(project, agent: str):
    return project.system / LOCATIONS[agent]["linux"].lstrip("/")


@pytest.mark.parametrize("agent", list(LOCATIONS))
def test_sync_writes_each_agents_managed_file_once_and_uninstall_takes_it_out(project, agent):
    project.write_managed_policy(MANAGED)
    done = cupcake(project, "sync", "--scope", "managed", "--agent", agent)
    assert done.returncode == 0, done.stderr
    path = managed_file(project, agent)
    assert done.stdout.startswith("Wrote Cupcake's ") and str(path) in done.stdout
    assert "fail_mode closed, timeout 120 s" in done.stdout
    text = path.read_text()
    assert f"{cupcake_executable()} run " in text and ("--fail-closed" in text or "exit 2" in text)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644 and stat.S_IMODE(path.parent.stat().st_mode) == 0o755
    again = cupcake(project, "sync", "--scope", "managed", "--agent", agent)
    assert "already up to date" in again.stdout and path.read_text() == text
    removed = cupcake(project, "sync", "--scope", "managed", "--agent", agent, "--uninstall")
    assert removed.returncode == 0, removed.stderr
    if agent in ("claude", "copilot"):  # Cupcake's own drop-in: gone
        assert not path.exists()
    else:
        assert "cupcake" not in path.read_text()


def test_the_managed_hooks_take_fail_mode_and_timeout_from_the_managed_file_alone(project):
    project.write_managed_policy('[[policy]]\nname = "p"\naction = { type = "provide_feedback", message = "m" }\n')
    project.write_policy('[settings]\nfail_mode = "closed"\nhook_timeout_seconds = 30\n')
    cupcake(project, "sync", "--scope", "managed")
    hooks = json.loads(managed_file(project, "claude").read_text())["hooks"]
    handler = hooks["PreToolUse"][0]["hooks"][0]
    assert handler["timeout"] == 600  # the default: the project's 30 s is not the managed file's
    command = handler["command"]
    assert command.startswith(f"{cupcake_executable()} run --event PreToolUse || ")  # the missing-executable guard
    assert "--fail-closed" not in command  # the project's fail_mode "closed" is not the managed file's


def test_an_agents_system_settings_are_edited_in_place_and_a_broken_one_is_never_overwritten(project):
    path = managed_file(project, "gemini")
    path.parent.mkdir(parents=True)
    path.write_text('{"security": {"auth": {"enforcedType": "oauth"}}}\n')
    assert cupcake(project, "sync", "--scope", "managed", "--agent", "gemini").returncode == 0
    data = json.loads(path.read_text())
    assert data["security"] == {"auth": {"enforcedType": "oauth"}} and "BeforeTool" in data["hooks"]
    path.write_text("{ not json")
    broken = cupcake(project, "sync", "--scope", "managed", "--agent", "gemini")
    assert broken.returncode == 1 and "not valid JSON" in broken.stderr
    assert path.read_text() == "{ not json"


def test_dry_run_shows_the_file_and_writes_nothing(project):
    done = cupcake(project, "sync", "--scope", "managed", "--agent", "codex", "--dry-run")
    assert done.returncode == 0 and "(dry run: nothing was written)" in done.stdout and '"PreToolUse"' in done.stdout
    assert not managed_file(project, "codex").exists()


def test_without_a_managed_policy_file_sync_says_what_the_hooks_will_enforce(project):
    done = cupcake(project, "sync", "--scope", "managed")
    assert done.returncode == 0
    assert "No managed policy file yet" in done.stdout and "each project's and user's files" in done.stdout


def test_the_agent_may_not_write_any_managed_settings(project):
    project.write_policy("[settings]\nself_protection = true\n")
    for agent in LOCATIONS:
        path = str(managed_file(project, agent))
        answer = project.send(project.tool_call("Write", {"file_path": path, "content": "{}"}))
        assert answer.specific.get("permissionDecision") == "deny", (agent, answer)
    dropin = managed_file(project, "claude").parent / "zz-mine.json"
    answer = project.send(project.tool_call("Bash", {"command": f"echo '{{}}' > {dropin}"}))
    assert answer.specific.get("permissionDecision") == "deny", answer


def doctor(project) -> dict:
    done = cupcake(project, "doctor", "--json")
    return json.loads(done.stdout)


def test_doctor_shows_the_layers_in_order_and_where_each_rule_came_from(project):
    project.write_managed_policy('imports = ["cupcake:git"]\n\n' + MANAGED)
    project.write_policy('[[policy]]\nname = "mine"\naction = { type = "provide_feedback", message = "hi" }\n')
    report = doctor(project)
    layers = report["policy_layers"]
    assert [(layer["layer"], layer["present"]) for layer in layers] == [
        ("managed", True),
        ("project", True),
        ("user", False),
    ]
    managed = layers[0]
    assert managed["file"] == str(project.managed / "cupcake.toml")
    assert managed["rules"][0] == {"name": "no-prod-deploy", "event": "PreToolUse", "file": managed["file"], "line": 7}
    assert {r["file"] for r in managed["rules"][1:]} == {"cupcake:git"}
    assert layers[1]["rules"] == [{"name": "mine", "event": "PreToolUse", "file": "cupcake.toml", "line": 1}]
    messages = [f["message"] for f in report["findings"] if f["check"] == "policy layers"]
    assert messages[0].startswith(f"managed: {managed['file']}: {len(managed['rules'])} rules in service: 1 from ")
    assert "no project or user file can remove or weaken them" in messages[0]


def test_doctor_counts_the_managed_hooks_as_installed(project):
    project.write_managed_policy(MANAGED)
    cupcake(project, "sync", "--scope", "managed")
    findings = doctor(project)["findings"]
    hooks = [f for f in findings if f["check"] == "hooks"]
    assert hooks and hooks[0]["status"] == "ok"
    assert hooks[0]["message"] == f"{managed_file(project, 'claude')}: Cupcake's hook on all 11 events"
    assert not any("never calls Cupcake" in f["message"] for f in findings)
    assert os.path.exists(managed_file(project, "claude"))
