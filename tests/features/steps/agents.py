"""Every agent: the same policies through each agent's own hook (features/agent_*.feature)."""

from __future__ import annotations

import json

from pytest_bdd import given, parsers, then, when

_AGENT = r"(?P<agent>claude|codex|gemini|copilot|droid|cursor)"


def _wire(project, agent):
    from tests.agents.test_one_policy import Wire

    return Wire(project, agent)


@given(parsers.re(rf"an? {_AGENT} user's project with the policy:"))
def agent_project_policy(project, run, agent, docstring):
    """The project's cupcake.toml, for a team whose members use that agent (cupcake sync --agent NAME)."""
    project.write_policy(docstring)
    run.agent = agent


@when(parsers.re(rf'the {_AGENT} agent asks to run "(?P<command>[^"]*)"'))
def agent_asks_to_run(project, run, agent, command):
    """The agent's before-tool event for its own shell tool (run_shell_command, bash, Execute, Shell…)."""
    w = _wire(project, agent)
    run.agent = agent
    run.answer = w.send(w.shell(command))


@when(parsers.re(rf'the {_AGENT} agent asks to write "(?P<path>[^"]*)"'))
def agent_asks_to_write(project, run, agent, path):
    """The agent's before-tool event for its own file-writing tool (apply_patch, write_file, create…)."""
    w = _wire(project, agent)
    run.agent = agent
    run.answer = w.send(w.write(path, "changed\n"))


@when(parsers.re(rf'the {_AGENT} agent has run "(?P<command>[^"]*)"'))
def agent_has_run(project, run, agent, command):
    """The agent's after-tool event for its shell tool: the command already ran."""
    w = _wire(project, agent)
    run.agent = agent
    run.answer = w.send(w.shell(command, event="PostToolUse", tool_response="ok"), "PostToolUse")


@when(
    parsers.re(
        rf'the {_AGENT} agent, started (?P<how>with|without) cupcake on its PATH, asks to run "(?P<command>[^"]*)"'
    )
)
def agent_runs_its_hook(project, run, agent, how, command):
    """The agent's own before-tool hook command, read from its project hook file, run as the agent runs
    it (``sh -c``, the event on stdin) with a PATH that has this installation's cupcake, or only the
    system's directories."""
    import json
    import os
    import subprocess

    from cupcake.agents.hook_command import installation_executable
    from cupcake.agents.installers import hooks, installer
    from tests.conftest import Answer

    w = _wire(project, agent)
    path = installer(agent).config_path("project", str(project.root), project.env())
    hook = next(c for e, c, _t in hooks(agent, path) if e == w.event("PreToolUse"))
    system = "/usr/local/bin:/usr/bin:/bin"
    env = dict(
        project.env(), PATH=system if how == "without" else os.path.dirname(installation_executable()) + ":" + system
    )
    payload = json.dumps(w.shell(command)).encode()
    done = subprocess.run(["sh", "-c", hook], input=payload, capture_output=True, cwd=project.root, env=env, timeout=60)
    run.agent = agent
    run.answer = Answer(done.stdout, done.stderr, done.returncode)


@then(parsers.parse('the hook blocks the call (exit 2) and says "{text}"'))
def hook_blocks(run, text):
    """Exit 2, the blocking exit of every agent, with the reason on stderr (where the agents read it)."""
    assert run.answer.code == 2 and text in run.answer.stderr.decode(), run.answer


@then(parsers.parse('the hook says "{text}"'))
def hook_says(run, text):
    """More of the reason the hook gave on stderr."""
    assert text in run.answer.stderr.decode(), run.answer


@then(parsers.parse('the call is blocked and the model is shown "{text}"'))
def agent_blocked_with(run, text):
    """Blocked in that agent's own answer format, with the text where the agent passes it to the model."""
    from tests.agents.test_one_policy import blocked, shown

    assert blocked(run.answer, run.agent), run.answer
    assert text in shown(run.answer, run.agent), run.answer


@then("the call goes ahead")
def agent_call_goes_ahead(run):
    """Nothing to object to: the agent is told nothing and its own permission flow applies."""
    from tests.agents.test_one_policy import blocked

    assert not blocked(run.answer, run.agent) and run.answer.stdout == b"", run.answer


@given(parsers.re(rf'the {_AGENT} session started in "(?P<folder>[^"]+)"'))
def agent_session_in(project, run, agent, folder):
    """The agent was started in a subfolder of the project (Codex then names no project folder: its hooks get the cwd)."""
    project.cwd = project.root / folder
    project.cwd.mkdir(parents=True, exist_ok=True)
    run.agent = agent


@when(parsers.re(r'(?s)the codex agent sends a patch with the header "(?P<header>.*)"'))
def codex_patch_header(project, run, header):
    """apply_patch with that header line (\\t, \\r, \\u00a0 … written as escapes), then a change."""
    line = header.encode().decode("unicode_escape")
    patch = f"*** Begin Patch\n{line}\n@@\n-a\n+b\n*** End Patch\n"
    w = _wire(project, "codex")
    run.agent = "codex"
    run.answer = w.send(w._tool_call("PreToolUse", "write", {"command": patch}))


@when(parsers.parse('the copilot agent asks to create "{path}" with a decoy file_path "{decoy}"'))
def copilot_decoy(project, run, path, decoy):
    """Copilot's create tool writes its own field, path; a file_path sent beside it is a decoy."""
    w = _wire(project, "copilot")
    run.agent = "copilot"
    run.answer = w.send(w._tool_call("PreToolUse", "write", {"path": path, "file_path": decoy, "file_text": "x"}))


@when(parsers.parse('the cursor agent calls the MCP tool "{tool}" on "{path}"'))
def cursor_mcp(project, run, tool, path):
    """Cursor's beforeMCPExecution: a bare tool name, its arguments as a JSON string."""
    w = _wire(project, "cursor")
    payload = w._base()
    payload.update(hook_event_name="beforeMCPExecution", tool_name=tool, tool_input=json.dumps({"path": path}))
    run.agent = "cursor"
    from cupcake.cli.run import execute
    from tests.conftest import Answer

    env = project.env()
    env.pop("CLAUDE_PROJECT_DIR", None)
    ctx = execute(json.dumps(payload).encode(), ["--agent", "cursor", "--event", "beforeMCPExecution"], env)
    run.answer = Answer(*ctx.envelope)
