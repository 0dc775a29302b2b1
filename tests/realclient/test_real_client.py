"""Steps for features/real_client.feature: Cupcake as the hook of the real Claude Code client.

The wording is the in-process features' (tests/features/steps/) wherever a step means the same thing
("the agent asks to run …", "the model is shown:", "\"…\" does not exist", "the policy file … loads with …",
"the user runs \"cupcake …\""); the bindings here act on the real client's sandbox and session instead.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import textwrap
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from cupcake.live.messages_api import ScriptedMessagesAPI, Text, ToolUse

from .claude_client import SESSION_TIMEOUT_SECONDS, Sandbox, Session, run_calls, run_session

scenarios("real_client.feature")

# -- assertions, shared by the steps and by the scenario that proves they can fail ----------


def assert_exists(path: Path) -> None:
    assert path.exists(), f"{path} does not exist"


def assert_model_was_shown(session: Session, expected: str) -> None:
    shown = session.tool_result_text()
    assert shown == expected, f"the model was shown:\n{shown!r}\nexpected:\n{expected!r}\n{session.describe()}"


# -- Given --------------------------------------------------------------------------------


@given("the project policy:")
def _(sandbox: Sandbox, docstring: str) -> None:
    """Write the docstring as the project's cupcake.toml."""
    (sandbox.project / "cupcake.toml").write_text(docstring + "\n")


@given(parsers.parse("the user lets the agent use {tool} without asking"))
def _(sandbox: Sandbox, tool: str) -> None:
    """Allow the tool on the command line (--allowedTools), so only Cupcake can stop it."""
    sandbox.allowed_tools.append(tool)


@given(parsers.parse('the directory "{path}" holds a file'))
def _(sandbox: Sandbox, path: str) -> None:
    """A directory (``$OUTSIDE``/``$PROJECT`` expanded) holding one file the agent must not delete."""
    directory = Path(sandbox.expand(path))
    directory.mkdir(parents=True)
    (directory / "keep.txt").write_text("precious\n")


@given(parsers.parse('the file "{path}" holds:'))
def _(sandbox: Sandbox, path: str, docstring: str) -> None:
    """The file (``$PROJECT``/``$OUTSIDE`` expanded) holds the text, and a newline."""
    target = Path(sandbox.expand(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(docstring + "\n")


@given("Cupcake is called through a wrapper that exits 1 instead of answering")
def _(sandbox: Sandbox, tmp_path: Path) -> None:
    """A hook that runs Cupcake, throws its answer away and exits 1: Claude Code treats that as no objection."""
    wrapper = tmp_path / "cupcake-exit-1"
    wrapper.write_text(
        textwrap.dedent(f"""\
            #!/bin/sh
            {shlex.quote(sandbox.hook_executable)} "$@" >/dev/null
            exit 1
            """)
    )
    wrapper.chmod(0o755)
    sandbox.hook_executable = str(wrapper)


# -- When ---------------------------------------------------------------------------------


@when(parsers.parse('the agent asks to run "{command}"'), target_fixture="session")
def _(sandbox: Sandbox, command: str) -> Session:
    """The scripted model asks to run the command with the Bash tool, in a headless session of the real client."""
    return run_session(sandbox, "Bash", {"command": sandbox.expand(command), "description": "scripted command"})


@when(parsers.parse('the agent asks to write "{path}" with:'), target_fixture="session")
def _(sandbox: Sandbox, path: str, docstring: str) -> Session:
    """The scripted model asks to write the file with the text, with the Write tool, in a headless session."""
    return run_session(sandbox, "Write", {"file_path": sandbox.expand(path), "content": docstring + "\n"})


@when("the model makes these tool calls, one after another:", target_fixture="session")
def _(sandbox: Sandbox, datatable: list[list[str]]) -> Session:
    """A table with the columns `tool` and `input` (JSON; $PROJECT and $OUTSIDE expanded)."""
    header, *rows = datatable
    assert header == ["tool", "input"], header
    return run_calls(sandbox, [(tool, json.loads(sandbox.expand(given))) for tool, given in rows])


# -- Then ---------------------------------------------------------------------------------


@then(parsers.parse('the directory "{path}" still exists'))
@then(parsers.parse('the file "{path}" exists'))
def _(sandbox: Sandbox, path: str) -> None:
    """The file or directory is there: the tool call did not remove it, or made it."""
    assert_exists(Path(sandbox.expand(path)))


@then(parsers.parse('"{path}" does not exist'))
def _(sandbox: Sandbox, path: str) -> None:
    """No file of that name: the tool call did not run."""
    target = Path(sandbox.expand(path))
    assert not target.exists(), f"{target} exists: the tool ran"


@then("the model is shown:")
def _(session: Session, docstring: str) -> None:
    """The tool_result of the scripted call, compared whole."""
    assert_model_was_shown(session, docstring)


@then(parsers.parse("the model is shown, for call {number:d}:"))
def _(session: Session, number: int, docstring: str) -> None:
    """The tool_result of the scripted call, for that call of the session, compared whole."""
    results = session.api.tool_results()
    assert len(results) >= number, f"only {len(results)} tool results\n{session.describe()}"
    shown = results[number - 1].text
    assert shown == docstring, (
        f"call {number} showed the model:\n{shown!r}\nexpected:\n{docstring!r}\n{session.describe()}"
    )


@then(parsers.parse('the file "{path}" holds:'))
def _(sandbox: Sandbox, path: str, docstring: str) -> None:
    """The file holds exactly the text, and a newline."""
    assert Path(sandbox.expand(path)).read_text() == docstring + "\n"


@then("the model's context included:")
def _(session: Session, docstring: str) -> None:
    """Anywhere in the last request: system prompt, messages, hook context."""
    shown = session.api.everything_shown()
    assert docstring in shown, f"not in what the model was shown:\n{docstring}\n---\n{shown[-4000:]}"


@then("no tool call was refused for lack of permission")
def _(session: Session) -> None:
    """The client refused no tool call for want of permission."""
    assert session.run.permission_denials == [], session.describe()


@then(parsers.parse("the {tool} call was refused for lack of permission"))
def _(session: Session, tool: str) -> None:
    """The client refused that tool's call, and only it, for want of permission."""
    refused = [denial["tool_name"] for denial in session.run.permission_denials]
    assert refused == [tool], session.describe()


@then("the prompt never reached the model")
def _(session: Session) -> None:
    """The model never got a request: the session stopped at the prompt."""
    assert session.api.main_loop_requests == [], session.describe()


@then(parsers.parse('the client reported the prompt blocked by a hook, mentioning "{text}"'))
def _(session: Session, text: str) -> None:
    """The client's result says a hook blocked the prompt, with the text in the reason."""
    result = session.run.result.get("result", "")
    assert result.startswith("UserPromptSubmit operation blocked by hook:") and text in result, session.describe()


@then(parsers.parse('checking that the directory "{path}" still exists fails'))
def _(sandbox: Sandbox, path: str) -> None:
    """The check 'the directory still exists' fails here: proves the step can fail."""
    with pytest.raises(AssertionError):
        assert_exists(Path(sandbox.expand(path)))


@then("checking that the model is shown this fails:")
def _(session: Session, docstring: str) -> None:
    """The check 'the model is shown' fails here: proves the step can fail."""
    with pytest.raises(AssertionError):
        assert_model_was_shown(session, docstring)


# -- cupcake init with the real client as its agent ----------------------------------------


@pytest.fixture
def init_script() -> list:
    """The scripted model's turns across init's sessions."""
    return []


@given("the project's CLAUDE.md:")
def _(sandbox: Sandbox, docstring: str) -> None:
    """The project's CLAUDE.md holds the rules, as written."""
    (sandbox.project / "CLAUDE.md").write_text(docstring + "\n")


@given("every hook of the project blocks and records that it ran")
def _(sandbox: Sandbox, tmp_path: Path) -> None:
    """A hook of the project's own on every event that blocks (exit 2) and records that it ran."""
    recorder = tmp_path / "blocking-hook"
    recorder.write_text(
        f'#!/bin/sh\necho "$@" >> {shlex.quote(str(tmp_path / "hooks-ran.log"))}\necho blocked >&2\nexit 2\n'
    )
    recorder.chmod(0o755)
    hooks = {
        event: [{"matcher": "", "hooks": [{"type": "command", "command": f"{shlex.quote(str(recorder))} {event}"}]}]
        for event in ("PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop")
    }
    settings = sandbox.project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"hooks": hooks}, indent=2) + "\n")


@given(parsers.re(r'(?P<after>after being told what is wrong, )?the model writes "(?P<path>[^"]+)" with:'))
def _(sandbox: Sandbox, init_script: list, after: str | None, path: str, docstring: str) -> None:
    """The scripted model's Write of the policy file in init's session (again, after being told what is wrong)."""
    init_script.append(ToolUse("Write", {"file_path": sandbox.expand(path), "content": docstring + "\n"}))
    init_script.append(Text("Fixed the regex." if after else "Wrote the policies. Duplicates and conflicts: none."))


@when(parsers.parse('the user runs "{command}" with the real client as the agent'), target_fixture="init_run")
def _(sandbox: Sandbox, init_script: list, cupcake_executable: Path, command: str) -> InitRun:
    """`cupcake init` runs headless with the real client as its agent, against the scripted model."""
    words = shlex.split(command)
    assert words[0] == "cupcake"
    argv = [str(cupcake_executable)] + words[1:] + ["--agent-command", shlex.quote(str(sandbox.claude))]
    with ScriptedMessagesAPI(init_script, max_lifetime=SESSION_TIMEOUT_SECONDS * 2) as api:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(sandbox.home),
            "ANTHROPIC_BASE_URL": api.base_url,
            "ANTHROPIC_API_KEY": "sk-ant-standin",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
        done = subprocess.run(
            argv,
            cwd=sandbox.project,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=SESSION_TIMEOUT_SECONDS * 2,
        )
    return InitRun(done, api)


class InitRun:
    def __init__(self, done, api: ScriptedMessagesAPI):
        self.done = done
        self.api = api

    def describe(self) -> str:
        return (
            f"cupcake init exited {self.done.returncode}\nstdout: {self.done.stdout[-4000:]}\n"
            f"stderr: {self.done.stderr[-3000:]}\nrequests: {self.api.summary()}"
        )

    def sent(self, request) -> str:
        return json.dumps(request.body.get("messages", []), ensure_ascii=False)


@then(parsers.parse("init finished after {count:d} attempts"))
def _(init_run: InitRun, count: int) -> None:
    """init exited 0 and its last attempt was that one."""
    assert init_run.done.returncode == 0, init_run.describe()
    assert f"Attempt {count} of 5: the policies load (1 in cupcake.toml.tmp)." in init_run.done.stdout, (
        init_run.describe()
    )
    assert f"Attempt {count + 1} of" not in init_run.done.stdout, init_run.describe()


@then(parsers.parse('the model\'s first prompt held the rule "{rule}"'))
def _(init_run: InitRun, rule: str) -> None:
    """init's first prompt to the model held the rule from CLAUDE.md, and init's own instructions."""
    first = init_run.api.main_loop_requests[0]
    assert rule in init_run.sent(first) and "# Turn CLAUDE.md rules into Cupcake policies" in init_run.sent(first)


@then(parsers.parse('the correction went to the same session, with the error "{error}"'))
def _(init_run: InitRun, error: str) -> None:
    """The loader's error went back to the model in the session of the first attempt (--resume)."""
    last = init_run.sent(init_run.api.main_loop_requests[-1])
    assert error in last, init_run.describe()
    assert "# Turn CLAUDE.md rules into Cupcake policies" in last, "the second run did not resume the first session"


@then(parsers.parse('the policy file "{path}" loads with {count:d} policy'))
def _(sandbox: Sandbox, path: str, count: int) -> None:
    """The policy file compiles without a problem, into that many policies."""
    from cupcake.compile.compiler import compile_files

    compiled = compile_files([sandbox.expand(path)], str(sandbox.project), {"HOME": str(sandbox.home)})
    assert compiled["problems"] == [] and len(compiled["policies"]) == count, compiled


@then(parsers.parse('no file "{path}" is left'))
def _(sandbox: Sandbox, path: str) -> None:
    """No file of that name is left behind."""
    assert not Path(sandbox.expand(path)).exists()


@then("no hook ran")
def _(tmp_path: Path) -> None:
    """No hook of the project's own ran during init."""
    log = tmp_path / "hooks-ran.log"
    assert not log.exists(), log.read_text()


@then("the project's .claude/settings.json now calls Cupcake on every event, beside the hooks it had")
def _(sandbox: Sandbox, init_run: InitRun) -> None:
    """After init's `cupcake sync`, Cupcake is the hook on every event, and the project's own hooks are still there."""
    from cupcake.agents.claude.hook_entries import EVENTS, is_cupcake

    settings = json.loads((sandbox.project / ".claude" / "settings.json").read_text())
    commands = {
        event: [h["command"] for g in groups for h in g["hooks"]] for event, groups in settings["hooks"].items()
    }
    synced = sorted(event for event, found in commands.items() if any(is_cupcake(c) for c in found))
    assert synced == sorted(EVENTS), init_run.describe()
    kept = sorted(event for event, found in commands.items() if any("blocking-hook" in c for c in found))
    assert kept == sorted(("PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop")), commands
