"""The command line itself (issue 24, item 8): help texts without Python types, agent names in any
case with a did-you-mean, shell completion, and `sync --json`. Through the installed executable, each
command a fresh process."""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest

from tests.conftest import cupcake_executable

COMMANDS = [
    [],
    ["run"],
    ["validate"],
    ["sync"],
    ["doctor"],
    ["init"],
    ["systems"],
    ["packs"],
    ["test"],
    ["explain"],
    ["replay"],
    ["audit"],
    ["jail"],
    ["audit", "stats"],
    ["audit", "verify"],
]
PYTHON_TYPE = re.compile(r"<(str|int|float|bool|path|list\[[a-z]+\]|tuple\[[a-z, ]+\])>", re.I)


def _cli(project, *args, env=None):
    return subprocess.run(
        [cupcake_executable(), *args],
        capture_output=True,
        text=True,
        cwd=project.root,
        env=env or project.env(),
        timeout=60,
    )


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c) or "cupcake" for c in COMMANDS])
def test_help_shows_no_python_types(project, command):
    done = _cli(project, *command, "--help")
    assert done.returncode == 0, done.stderr
    assert not PYTHON_TYPE.search(done.stdout), done.stdout
    assert "[[" not in done.stdout.splitlines()[0], done.stdout  # the usage line: [FILE]..., not [[FILE]]...


@pytest.mark.parametrize(
    "args, message",
    [
        (["sync", "--agent", "Codx"], "cupcake sync: --agent: unknown agent 'Codx' (did you mean \"codex\"?)"),
        (["init", "--agent", "Claud"], "cupcake init: --agent: unknown agent 'Claud' (did you mean \"claude\"?)"),
        (["sync", "--agent", "vim"], "cupcake sync: --agent: unknown agent 'vim'; the agents are"),
    ],
)
def test_an_unknown_agent_is_a_usage_error_with_a_did_you_mean(project, args, message):
    project.write_policy('imports = ["cupcake:git"]\n')
    done = _cli(project, *args)
    assert (done.stdout, done.returncode) == ("", 2)
    assert done.stderr.startswith(message)
    assert done.stderr.endswith("the agents are claude, codex, gemini, copilot, droid, cursor\n")


def test_agent_names_are_case_insensitive(project):
    project.write_policy('imports = ["cupcake:git"]\n')
    synced = _cli(project, "sync", "--agent", "Gemini")
    assert synced.returncode == 0, synced.stderr
    assert synced.stdout.startswith("Wrote Cupcake's Gemini CLI hooks to .gemini/settings.json")
    answer = project.send_process(
        project.tool_call("Bash", {"command": "git push --force"}), args=["--agent", "CLAUDE", "--event", "PreToolUse"]
    )
    assert answer.specific["permissionDecision"] == "deny"
    wrong = project.send_process(project.tool_call("Bash", {"command": "ls"}), args=["--agent", "cladue"])
    assert "unknown agent 'cladue' (did you mean \"claude\"?)" in wrong.json["systemMessage"]


def test_shell_completion_is_shown_installed_and_completes(project):
    shown = _cli(project, "--show-completion", "bash")
    assert shown.returncode == 0, shown.stderr
    assert "complete -o default -F _cupcake_completion cupcake" in shown.stdout
    env = dict(project.env(), SHELL="/bin/bash")
    installed = _cli(project, "--install-completion", "bash", env=env)
    assert installed.returncode == 0, installed.stderr
    script = project.home / ".bash_completions" / "cupcake.sh"
    assert script.read_text() == shown.stdout.rstrip("\n")
    assert f"source '{script}'" in (project.home / ".bashrc").read_text()
    for words, cword, expected in (
        ("cupcake pa", "1", ["packs"]),
        ("cupcake audit st", "2", ["stats"]),
        ("cupcake explain --al", "2", ["--all"]),
    ):
        env = dict(project.env(), COMP_WORDS=words, COMP_CWORD=cword, _CUPCAKE_COMPLETE="complete_bash")
        done = _cli(project, env=env)
        assert (done.stdout.split(), done.returncode) == (expected, 0), words


def test_sync_json(project):
    project.write_policy('imports = ["cupcake:git"]\n')
    done = _cli(project, "sync", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert {k: report[k] for k in ("schema", "ok", "exit_code", "agent", "scope", "action", "dry_run")} == {
        "schema": 1,
        "ok": True,
        "exit_code": 0,
        "agent": "claude",
        "scope": "project",
        "action": "install",
        "dry_run": False,
    }
    assert (report["settings_file"], report["changed"], report["errors"]) == (
        ".claude/settings.json",
        [".claude/settings.json", ".claude/settings.local.json", ".gitignore"],  # the personal file: protections
        [],
    )
    assert report["output"].startswith("Wrote Cupcake's Claude Code hooks to .claude/settings.json: 11 events")
    again = json.loads(_cli(project, "sync", "--json").stdout)
    assert again["changed"] == [] and "already up to date" in again["output"]
    refused = _cli(project, "sync", "--agent", "gemini", "--scope", "local", "--json")
    assert refused.returncode == 1 and refused.stderr == ""
    assert json.loads(refused.stdout)["errors"] == ["Gemini CLI has no 'local' scope: use project or user"]
    assert os.path.exists(project.root / ".claude" / "settings.json")
