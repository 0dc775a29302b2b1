"""What the agent does (asks to run, write, edit, use a tool) and the events Claude Code sends."""

from __future__ import annotations

import json
import shlex
import subprocess

from pytest_bdd import parsers, when

from tests.conftest import Answer, captured_payload, cupcake_executable
from tests.features.steps.helpers import _send


@when(parsers.re(r'(?s)the agent asks to run "(?P<command>.*)"( again)?'))
def agent_runs(project, run, command):
    """The agent asks to run the command with its Bash tool (PreToolUse), in process."""
    _send(project, run, project.tool_call("Bash", {"command": command, "description": "run it"}))


@when(
    parsers.re(
        r'the agent asks to run one line of (?P<count>[0-9,]+) commands like "(?P<shape>[^"]*)", then "(?P<last>[^"]*)"'
    )
)
def agent_runs_a_long_line(project, run, count, shape, last):
    """One Bash call: ``shape`` with ``{n}`` numbered 0, 1, 2, ..., joined by ``; ``, and ``last`` at its end."""
    n = int(count.replace(",", ""))
    command = "; ".join([shape.replace("{n}", str(i)) for i in range(n - 1)] + [last])
    _send(project, run, project.tool_call("Bash", {"command": command, "description": "run it"}))


@when(parsers.parse('the agent asks to write "{path}" with:'))
def agent_writes(project, run, path, docstring):
    """The agent asks to write the file (relative to its working directory) with the text, with its Write tool."""
    target = str(project.cwd / path)
    _send(project, run, project.tool_call("Write", {"file_path": target, "content": docstring}))


@when(parsers.parse('the agent asks to edit "{path}" replacing "{old}" with "{new}"'))
def agent_edits(project, run, path, old, new):
    """The agent asks to replace one string with another in the file, with its Edit tool."""
    tool_input = {"file_path": str(project.cwd / path), "old_string": old, "new_string": new, "replace_all": False}
    _send(project, run, project.tool_call("Edit", tool_input))


@when(parsers.parse('the agent uses the tool "{tool}" with:'))
def agent_uses_tool(project, run, tool, docstring):
    """The agent asks to use the tool with this input (JSON)."""
    _send(project, run, project.tool_call(tool, json.loads(docstring)))


@when(parsers.re(r'Claude Code sends the captured "(?P<name>[^"]+)" event(?P<rest>.*)'))
def sends_captured(project, run, name, rest):
    """A payload the real client sent, through the installed `cupcake run` process (exact bytes)."""
    payload = captured_payload(name, project)
    event = payload.get("hook_event_name")
    if "stop_hook_active true" in rest:
        payload["stop_hook_active"] = True
    if rest.startswith(' as "'):
        event = rest.split('"')[1]
    run.answer = project.send_process(payload, event)


@when(parsers.parse('Claude Code sends the "{event}" event:'))
def sends_event(project, run, event, docstring):
    """Claude Code sends this payload (JSON) as the named event."""
    _send(project, run, json.loads(docstring), event)


@when(parsers.parse('Claude Code sends "{raw}" as the {event} event'))
def sends_raw(project, run, raw, event):
    """Claude Code sends these bytes as the named event (a payload that may not be JSON at all)."""
    _send(project, run, raw.encode(), event)


@when(parsers.parse('the hook runs cupcake with the arguments "{arguments}"'))
def hook_runs_with_arguments(project, run, arguments):
    """The hook runs the installed `cupcake` with these arguments and a Bash tool call on stdin."""
    payload = json.dumps(project.tool_call("Bash", {"command": "ls"})).encode()
    argv = [cupcake_executable()] + shlex.split(arguments)
    done = subprocess.run(argv, input=payload, capture_output=True, cwd=project.cwd, env=project.env(), timeout=30)
    run.answer = Answer(done.stdout, done.stderr, done.returncode)


TOOL_INPUTS = {  # what each file-writing tool sends for a path
    "Write": lambda p: {"file_path": p, "content": "changed\n"},
    "Edit": lambda p: {"file_path": p, "old_string": "a", "new_string": "b", "replace_all": False},
    "MultiEdit": lambda p: {"file_path": p, "edits": [{"old_string": "a", "new_string": "b"}]},
    "NotebookEdit": lambda p: {"notebook_path": p, "cell_id": "c1", "new_source": "x = 1", "edit_mode": "replace"},
    "Read": lambda p: {"file_path": p},
}


@when(parsers.parse('the agent uses {tool} on "{path}"'))
def agent_uses_tool_on(project, run, tool, path):
    """``path`` relative to the agent's working directory, or under ``~/``, or absolute."""
    _send(project, run, project.tool_call(tool, TOOL_INPUTS[tool](str(project.place(path, project.cwd)))))


@when(parsers.parse('the agent asks, through the cupcake command, to write "{path}" with:'))
def agent_writes_process(project, run, path, docstring):
    """The agent asks to write the file, through the installed `cupcake run` process."""
    target = str(project.cwd / path)
    _send(project, run, project.tool_call("Write", {"file_path": target, "content": docstring}), process=True)


@when(parsers.parse('the agent asks, through the cupcake command, to run "{command}"'))
def agent_runs_process(project, run, command):
    """The agent asks to run the command, through the installed `cupcake run` process."""
    _send(project, run, project.tool_call("Bash", {"command": command, "description": "run it"}), process=True)


@when(parsers.parse('the user submits the prompt "{prompt}"'))
def user_submits(project, run, prompt):
    """The user submits the prompt (UserPromptSubmit)."""
    _send(project, run, project.payload("UserPromptSubmit", prompt=prompt))


@when("a session starts")
def session_starts(project, run):
    """A session starts (SessionStart, source "startup")."""
    _send(project, run, project.payload("SessionStart", source="startup"))


@when(parsers.parse("the agent asks to run:"))
def agent_runs_lines(project, run, docstring):
    """A Bash command of several lines (a here-document), given as a docstring."""
    _send(project, run, project.tool_call("Bash", {"command": docstring, "description": "run it"}))
