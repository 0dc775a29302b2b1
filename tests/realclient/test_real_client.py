"""Steps for features/real_client.feature: Cupcake as the hook of the real Claude Code client."""

from __future__ import annotations

import shlex
import textwrap
from pathlib import Path

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from .claude_client import Sandbox, Session, run_session

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
    directory = Path(sandbox.expand(path))
    directory.mkdir(parents=True)
    (directory / "keep.txt").write_text("precious\n")


@given(parsers.parse('the file "{path}" holds:'))
def _(sandbox: Sandbox, path: str, docstring: str) -> None:
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


@when(parsers.parse('the agent runs the Bash command "{command}"'), target_fixture="session")
def _(sandbox: Sandbox, command: str) -> Session:
    return run_session(sandbox, "Bash", {"command": sandbox.expand(command), "description": "scripted command"})


@when(parsers.parse('the agent writes the file "{path}" with:'), target_fixture="session")
def _(sandbox: Sandbox, path: str, docstring: str) -> Session:
    return run_session(sandbox, "Write", {"file_path": sandbox.expand(path), "content": docstring + "\n"})


# -- Then ---------------------------------------------------------------------------------


@then(parsers.parse('the directory "{path}" still exists'))
@then(parsers.parse('the file "{path}" exists'))
def _(sandbox: Sandbox, path: str) -> None:
    assert_exists(Path(sandbox.expand(path)))


@then(parsers.parse('the file "{path}" does not exist'))
def _(sandbox: Sandbox, path: str) -> None:
    target = Path(sandbox.expand(path))
    assert not target.exists(), f"{target} exists: the tool ran"


@then("the model was shown:")
def _(session: Session, docstring: str) -> None:
    """The tool_result of the scripted call, compared whole."""
    assert_model_was_shown(session, docstring)


@then("the model's context included:")
def _(session: Session, docstring: str) -> None:
    """Anywhere in the last request: system prompt, messages, hook context."""
    shown = session.api.everything_shown()
    assert docstring in shown, f"not in what the model was shown:\n{docstring}\n---\n{shown[-4000:]}"


@then("no tool call was refused for lack of permission")
def _(session: Session) -> None:
    assert session.run.permission_denials == [], session.describe()


@then(parsers.parse("the {tool} call was refused for lack of permission"))
def _(session: Session, tool: str) -> None:
    refused = [denial["tool_name"] for denial in session.run.permission_denials]
    assert refused == [tool], session.describe()


@then("the prompt never reached the model")
def _(session: Session) -> None:
    assert session.api.main_loop_requests == [], session.describe()


@then(parsers.parse('the client reported the prompt blocked by a hook, mentioning "{text}"'))
def _(session: Session, text: str) -> None:
    result = session.run.result.get("result", "")
    assert result.startswith("UserPromptSubmit operation blocked by hook:") and text in result, session.describe()


@then(parsers.parse('checking that the directory "{path}" still exists fails'))
def _(sandbox: Sandbox, path: str) -> None:
    with pytest.raises(AssertionError):
        assert_exists(Path(sandbox.expand(path)))


@then("checking that the model was shown this fails:")
def _(session: Session, docstring: str) -> None:
    with pytest.raises(AssertionError):
        assert_model_was_shown(session, docstring)
