"""Every agent: the same policies through each agent's own hook (features/agent_*.feature)."""

from __future__ import annotations

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
