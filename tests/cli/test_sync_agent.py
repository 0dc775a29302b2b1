"""`cupcake sync --agent NAME`: each agent's hook file, with Claude Code's guarantees."""

from __future__ import annotations

import json

import pytest

from cupcake.agents.installers import configured_agents, hook_commands
from cupcake.cli.sync_agent import sync_agent

AGENTS = ("codex", "gemini", "copilot", "droid", "cursor")
FILES = {
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "copilot": ".github/hooks/cupcake.json",
    "droid": ".factory/settings.json",
    "cursor": ".cursor/hooks.json",
}
USER_FILES = {
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "copilot": ".copilot/settings.json",
    "droid": ".factory/settings.json",
    "cursor": ".cursor/hooks.json",
}


def sync(project, agent, *args, **options):
    out, err = [], []
    env = project.env()
    env.pop("CLAUDE_PROJECT_DIR", None)
    options.setdefault("command", "cupcake")
    code = sync_agent(
        agent, options.pop("scope", "project"), env, str(project.root), out=out.append, err=err.append, **options
    )
    return code, "\n".join(out), "\n".join(err)


@pytest.mark.parametrize("agent", AGENTS)
def test_sync_writes_the_agents_hooks_with_its_name_on_each_command(project, agent):
    project.write_policy("")
    code, out, err = sync(project, agent)
    assert code == 0, err
    path = project.root / FILES[agent]
    commands = hook_commands(str(path), agent)
    assert commands and all(f"run --agent {agent} --event {event}" in c for event, c in commands), commands
    assert "Wrote Cupcake's" in out
    assert (project.root / ".gitignore").read_text() == ".cupcake/\n"
    assert configured_agents(str(project.root), project.env()) == [(agent, "project", str(path))]


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
    assert code == 0 and f"--agent {agent}" in out and "(dry run: nothing was written)" in out
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


@pytest.mark.parametrize("agent", AGENTS)
def test_closed_mode_blocks_when_cupcake_cannot_run_with_the_reason_on_stderr(project, agent):
    project.write_policy('[settings]\nfail_mode = "closed"\n')
    assert sync(project, agent)[0] == 0
    from cupcake.agents import adapter

    guarded = {
        adapter(agent).CAPABILITIES[e]["agent_events"][0]
        for e in ("PreToolUse", "UserPromptSubmit", "PermissionRequest")
        if e in adapter(agent).CAPABILITIES
    }
    commands = dict(hook_commands(str(project.root / FILES[agent]), agent))
    for event, command in commands.items():
        # before a tool and at a prompt a failure blocks; at a stop it would only loop the agent
        assert (command.endswith("exit 2; }") and ">&2" in command) == (event in guarded), (event, command)
    if agent == "cursor":
        data = json.loads((project.root / FILES[agent]).read_text())
        assert all(h["failClosed"] for hs in data["hooks"].values() for h in hs)


def test_the_closed_mode_tail_really_exits_2_with_a_reason(project, tmp_path):
    import subprocess

    from cupcake.agents.hookfile import command_line

    line = command_line(str(tmp_path / "missing-cupcake"), "gemini", "BeforeTool", closed=True)
    done = subprocess.run(["sh", "-c", line], capture_output=True, text=True)
    assert done.returncode == 2 and "fail_mode is closed" in done.stderr


@pytest.mark.parametrize("agent", AGENTS)
def test_user_scope_writes_the_users_file(project, agent):
    project.write_user_policy("")
    code, _, err = sync(project, agent, scope="user")
    assert code == 0, err
    path = project.home / USER_FILES[agent]
    assert hook_commands(str(path), agent)


def test_a_scope_the_agent_does_not_have_is_refused(project):
    code, _, err = sync(project, "gemini", scope="local")
    assert code == 1 and "no 'local' scope" in err


def test_trust_is_for_codex_only(project):
    project.write_policy("")
    code, _, err = sync(project, "gemini", trust=True)
    assert code == 1 and "--trust is for Codex" in err


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
