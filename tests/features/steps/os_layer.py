"""The OS layer (features/os_layer.feature): the agent's own hook command as `cupcake sync` wrote it,
the command the answer tells the agent to run instead, and that command run by real bash."""

from __future__ import annotations

import json
import subprocess

from pytest_bdd import given, parsers, then, when

from tests.conftest import Answer

_AGENT = r"(?P<agent>claude|codex|gemini|copilot|droid|cursor)"
PRE_TOOL = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool", "copilot": "preToolUse"}


@given(parsers.parse('the script "{name}" writes cupcake.toml through a name it builds when it runs, then "{other}"'))
def opaque_script(project, run, name, other):
    """A program the hook cannot see into: it builds the protected file's name when it runs, writes it,
    then writes an ordinary file, and exits 7 (printing WROTE, or REFUSED and the reason)."""
    from tests.jail.scripts import OPAQUE

    (project.root / name).write_text(OPAQUE.replace("ordinary.txt", other))
    run.policy_text = (project.root / "cupcake.toml").read_bytes()


@when(parsers.re(rf'the {_AGENT} agent asks, through the hook sync wrote, to run "(?P<command>[^"]*)"'))
def asks_through_the_hook(project, run, agent, command):
    """The agent's before-tool event for its shell tool, sent to the hook command its hook file holds
    (as `cupcake sync --agent NAME` wrote it), through a shell, as the agent does."""
    from cupcake.agents.installers import hooks, installer
    from tests.agents.test_one_policy import Wire

    path = installer(agent).config_path("project", str(project.root), project.env())
    commands = {event: command for event, command, _timeout in hooks(agent, path)}
    hook = commands[PRE_TOOL.get(agent, "PreToolUse")]
    wire = Wire(project, agent)
    payload = wire.shell(command)
    done = subprocess.run(
        ["/bin/bash", "-c", hook],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=project.root,
        env={**project.env(), "PATH": f"{_bin()}:{project.env()['PATH']}"},
        timeout=60,
    )
    run.answer = Answer(done.stdout, done.stderr, done.returncode)
    run.agent = agent
    run.shell_command = command


def _bin() -> str:
    import os
    import sys

    return os.path.dirname(sys.executable)  # where this installation's `cupcake` is


def _told(run) -> str | None:
    from tests.agents.test_jail_answers import _rewritten_command

    return _rewritten_command(run.agent, run.answer.stdout)


@then("the agent is told to run it in Cupcake's jail")
def told_to_run_in_the_jail(project, run):
    """The answer repeats the call with the command replaced by the same command run in the jail."""
    from cupcake.jail.decide import quote

    told = _told(run)
    assert told is not None and told != run.shell_command, run.answer
    assert " -I -S " in told and "/cupcake/jail/" in told, told
    assert told.endswith(f".spec' bash {quote(run.shell_command)}"), told


@when("the agent runs what it was told")
def runs_what_it_was_told(project, run):
    """The agent's shell runs the command the answer names (the jailed one, or its own when the answer
    changed nothing)."""
    command = _told(run) or run.shell_command
    done = subprocess.run(
        ["/bin/bash", "-c", command], capture_output=True, cwd=project.root, env=project.env(), timeout=60
    )
    run.ran = done


@then(parsers.parse('the command printed "{text}"'))
def command_printed(run, text):
    """What the command wrote to its standard output or error."""
    assert text in (run.ran.stdout + run.ran.stderr).decode(), run.ran


@then(parsers.parse("the command exited with {code:d}"))
def command_exited(run, code):
    """The command's exit status, as the agent gets it."""
    assert run.ran.returncode == code, run.ran


@then("the policy file is unchanged")
def policy_unchanged(project, run):
    """cupcake.toml holds, byte for byte, what it held before the command ran."""
    assert (project.root / "cupcake.toml").read_bytes() == run.policy_text
