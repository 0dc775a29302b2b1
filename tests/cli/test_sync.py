"""`cupcake sync --agent NAME`: one path for every agent, each agent's own hook file, the same guarantees."""

from __future__ import annotations

import json
import subprocess

import pytest

from cupcake.agents import adapter, hook_command
from cupcake.agents.installers import configured_agents, hooks
from cupcake.cli.sync import sync as run_sync

AGENTS = ("claude", "codex", "gemini", "copilot", "droid", "cursor")
FILES = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "copilot": ".github/hooks/cupcake.json",
    "droid": ".factory/settings.json",
    "cursor": ".cursor/hooks.json",
}
USER_FILES = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "copilot": ".copilot/settings.json",
    "droid": ".factory/settings.json",
    "cursor": ".cursor/hooks.json",
}
BLOCKING = ("PreToolUse", "UserPromptSubmit", "PermissionRequest")


def sync(project, agent, *args, **options):
    out, err = [], []
    env = project.env()
    env.pop("CLAUDE_PROJECT_DIR", None)
    options.setdefault("command", "cupcake")
    code = run_sync(
        options.pop("scope", "project"), env, str(project.root), out=out.append, err=err.append, agent=agent, **options
    )
    return code, "\n".join(out), "\n".join(err)


def commands(agent, path) -> dict:
    return {event: command for event, command, _timeout in hooks(agent, str(path))}


def guarded_events(agent) -> set:
    capabilities = adapter(agent).CAPABILITIES
    return {capabilities[e]["agent_events"][0] for e in BLOCKING if e in capabilities}


@pytest.mark.parametrize("agent", AGENTS)
def test_sync_writes_the_agents_hooks_with_its_name_on_each_command(project, agent):
    project.write_policy("")
    code, out, err = sync(project, agent)
    assert code == 0, err
    path = project.root / FILES[agent]
    found = commands(agent, path)
    named = "" if agent == "claude" else f" --agent {agent}"
    assert found and all(f"cupcake run{named} --event {event}" in c for event, c in found.items()), found
    assert f"Wrote Cupcake's {adapter(agent).DISPLAY_NAME} hooks to {FILES[agent]}" in out
    ignored = (project.root / ".gitignore").read_text().splitlines()
    assert ignored[0] == ".cupcake/" and f"{FILES[agent]}.bak" in ignored
    assert (agent, "project", str(path)) in configured_agents(str(project.root), project.env())


@pytest.mark.parametrize("agent", AGENTS)
def test_everything_else_stays_byte_for_byte_and_twice_changes_nothing(project, agent):
    project.write_policy("")
    path = project.root / FILES[agent]
    path.parent.mkdir(parents=True)
    original = '{\n    "theme":   "dark",\n    "x": [1,2,  3]\n}\n'
    if agent in ("copilot", "cursor"):  # their hook files are versioned: sync adds "version": 1 where it is missing
        original = original.replace("[1,2,  3]\n", '[1,2,  3],\n    "version":   1\n')
    path.write_text(original)
    assert sync(project, agent)[0] == 0
    once = path.read_text()
    assert once.startswith('{\n    "theme":   "dark",\n    "x": [1,2,  3],')
    assert agent not in ("copilot", "cursor") or '"version":   1' in once
    assert (path.parent / (path.name + ".bak")).read_text() == original
    code, out, _ = sync(project, agent)
    assert code == 0 and path.read_text() == once and "already up to date" in out
    code, out, _ = sync(project, agent, uninstall=True)
    assert code == 0 and path.read_text() == original, path.read_text()


@pytest.mark.parametrize("agent", AGENTS)
def test_dry_run_shows_the_diff_and_writes_nothing(project, agent):
    project.write_policy("")
    code, out, _ = sync(project, agent, dry_run=True)
    assert code == 0 and "--event" in out and "(dry run: nothing was written)" in out
    assert agent == "claude" or f"--agent {agent}" in out
    assert not (project.root / FILES[agent]).exists() and not (project.root / ".gitignore").exists()


@pytest.mark.parametrize("agent", AGENTS)
def test_a_file_it_cannot_parse_is_refused_and_left_alone(project, agent):
    project.write_policy("")
    path = project.root / FILES[agent]
    path.parent.mkdir(parents=True)
    path.write_text('{"hooks": {,}')
    code, _, err = sync(project, agent)
    assert code == 1 and "not valid JSON" in err, err
    assert path.read_text() == '{"hooks": {,}'


@pytest.mark.parametrize("mode", ["open", "closed"])
@pytest.mark.parametrize("agent", AGENTS)
def test_where_a_call_can_be_stopped_a_cupcake_that_cannot_run_blocks(project, agent, mode):
    project.write_policy(f'[settings]\nfail_mode = "{mode}"\n')
    assert sync(project, agent)[0] == 0
    found = commands(agent, project.root / FILES[agent])
    for event, command in found.items():
        # before a tool and at a prompt a failure blocks; at a stop it would only loop the agent
        parsed = hook_command.parse(command)
        assert parsed.blocks_when_missing == (event in guarded_events(agent)), command
        assert parsed.holds_closed == (mode == "closed" and event in guarded_events(agent)), command
        assert parsed.fail_closed == (mode == "closed"), command
    if agent == "cursor":
        data = json.loads((project.root / FILES[agent]).read_text())
        assert all(h.get("failClosed", False) == (mode == "closed") for hs in data["hooks"].values() for h in hs)


@pytest.mark.parametrize(
    "closed, exit_code, says",
    [(False, 2, "could not run"), (True, 2, "fail_mode is 'closed'")],
)
def test_the_guard_really_exits_2_with_a_reason_when_cupcake_is_missing(tmp_path, closed, exit_code, says):
    line = hook_command.build(str(tmp_path / "missing-cupcake"), "gemini", "BeforeTool", True, closed)
    done = subprocess.run(["sh", "-c", line], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == exit_code and says in done.stderr, done.stderr
    assert str(tmp_path / "missing-cupcake") in done.stderr


@pytest.mark.parametrize("closed", [False, True])
@pytest.mark.parametrize("status", [0, 1, 2, 126, 127])
def test_the_guard_lets_cupcakes_own_answer_stand(tmp_path, closed, status):
    """Exit 0 (an answer) and Cupcake's own block (2) pass through; in open mode a crash (1) stays a
    crash; only a failure to start (126, 127), or in closed mode any failure, becomes a block."""
    fake = tmp_path / "cupcake"
    fake.write_text(f"#!/bin/sh\necho answer\necho reason >&2\nexit {status}\n")
    fake.chmod(0o755)
    if status == 126:
        fake.chmod(0o644)  # found, not executable
    line = hook_command.build(str(fake), "claude", "PreToolUse", True, closed)
    done = subprocess.run(["sh", "-c", line], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    expected = status if status in (0, 2) or (status == 1 and not closed) else 2
    assert done.returncode == expected, (line, done.stderr)
    assert ("could not run" in done.stderr) == (status not in (0, 2) and expected == 2)


@pytest.mark.parametrize("agent", AGENTS)
def test_user_scope_writes_the_users_file(project, agent):
    project.write_user_policy("")
    code, _, err = sync(project, agent, scope="user")
    assert code == 0, err
    path = project.home / USER_FILES[agent]
    assert commands(agent, path)


def test_a_scope_the_agent_does_not_have_is_refused(project):
    code, _, err = sync(project, "gemini", scope="local")
    assert code == 1 and "no 'local' scope" in err


def test_an_option_is_refused_where_the_agent_has_no_such_step(project):
    project.write_policy("")
    code, _, err = sync(project, "gemini", trust=True)
    assert code == 2 and "--trust is for Codex; Gemini CLI has no such step" in err
    code, _, err = sync(project, "claude", sandbox=True, jail=True)
    assert code == 2 and "two ways to one end: pick one" in err
    code, _, err = sync(project, "gemini", unshare_net=True)
    assert code == 2 and "--unshare-net is for Cupcake's jail" in err


def test_codex_without_trust_says_how(project):
    project.write_policy("")
    code, out, _ = sync(project, "codex")
    assert code == 0 and "cupcake sync --agent codex --trust" in out


def test_codex_session_end_timeout_stays_within_codexs_cap(project):
    project.write_policy("")
    sync(project, "codex")
    data = json.loads((project.root / ".codex/hooks.json").read_text())
    assert data["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"] == 3
    assert data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] == 600


def test_another_tools_hooks_in_the_same_file_stay(project):
    project.write_policy("")
    path = project.root / FILES["droid"]
    path.parent.mkdir(parents=True)
    theirs = {"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "theirs"}]}]}}
    path.write_text(json.dumps(theirs))
    sync(project, "droid")
    data = json.loads(path.read_text())
    assert data["hooks"]["PreToolUse"][0] == theirs["hooks"]["PreToolUse"][0]
    assert len(data["hooks"]["PreToolUse"]) == 2


@pytest.mark.parametrize("agent, personal", [("claude", "local"), ("codex", "user"), ("gemini", "user")])
def test_the_path_warning_offers_the_agents_own_personal_scope(project, agent, personal):
    project.write_policy("")
    out, err = [], []
    env = dict(project.env(), PATH="/usr/bin:/bin")  # no cupcake on it
    env.pop("CLAUDE_PROJECT_DIR", None)
    assert run_sync("project", env, str(project.root), agent=agent, out=out.append, err=err.append) == 0
    named = "" if agent == "claude" else f" --agent {agent}"
    assert f"`cupcake sync{named} --scope {personal}`" in "\n".join(err), err
