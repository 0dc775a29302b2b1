"""`cupcake init`: the rules it finds, the stand-in agent that writes the policies, the starter file.

Files are written with `the file "…":`, commands run with `the user runs "cupcake …"`, and output
is read with `the output says …` (commands.py). $STANDIN in a command line is the stand-in agent."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest
from pytest_bdd import given, parsers, then

STANDIN_AGENT = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "fixtures", "standin_agent.py"
)


@pytest.fixture
def standin(tmp_path):
    """The stand-in agent's script directory: what it writes at each attempt, and the prompts it got."""
    directory = tmp_path / "standin"
    directory.mkdir()
    return directory


def standin_command(standin) -> str:
    return shlex.join([os.path.realpath(sys.executable), STANDIN_AGENT, str(standin)])


@given(parsers.parse('the project is a git repository that ignores "{pattern}"'))
def git_repository(project, pattern):
    """The project is a git repository whose .gitignore holds the pattern."""
    subprocess.run(["git", "init", "-q", str(project.root)], check=True, timeout=30)
    (project.root / ".gitignore").write_text(pattern + "\n")


@given(parsers.parse('a virtualenv in "{path}" holding a CLAUDE.md'))
def virtualenv_with_memory(project, path):
    """A Python virtualenv inside the project, with a CLAUDE.md of its own (not the project's rules)."""
    venv = project.root / path
    venv.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "CLAUDE.md").write_text("A virtualenv's file.\n")


@given(parsers.re(r"a chain of imports (?P<chain>.+)"))
def chain_of_imports(project, chain):
    """Each file imports the next one, by a path relative to itself."""
    names = [part.strip().strip('"') for part in chain.split("→")]
    for index, name in enumerate(names):
        following = names[index + 1] if index + 1 < len(names) else None
        target = project.root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        text = f"Level {index + 1}" + (
            f": @{os.path.relpath(project.root / following, target.parent)}" if following else ""
        )
        target.write_text(text + "\n")


@given(parsers.re(r"the stand-in agent writes (?P<user>into the user file )?at attempt (?P<attempt>\d+):"))
def standin_writes(standin, user, attempt, docstring):
    """What the stand-in agent writes into the project's (or the user's) policy file at that attempt."""
    (standin / f"{'user' if user else 'project'}-{attempt}.toml").write_text(docstring + "\n")


@given(parsers.parse('the stand-in agent fails with "{message}"'))
def standin_fails(standin, message):
    """The stand-in agent exits with an error, printing the message."""
    (standin / "fail-1").write_text(message)


@given("no agent is installed")
def no_agent(terminal):
    """PATH holds only an empty directory: no `claude` there."""
    terminal.path_mode = "empty"


@then(parsers.parse("the files found are:"))
def files_found(run, datatable):
    """The rows of `cupcake init --list` (files above the test's own directory are left out)."""
    lines = run.answer.stdout.decode().splitlines()
    start = lines.index("Rules found, in the order the agent reads them:") + 1
    rows = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        scope, rest = line.split(None, 1)
        shown, found = [part.strip() for part in rest.split("  ", 1)]
        if shown.startswith("/") or shown.startswith("../../"):
            continue
        rows.append([scope, shown, found])
    assert rows == datatable[1:], run.answer


@then(parsers.re(r"the stand-in agent ran (?P<count>\d+) times?"))
def standin_ran(standin, count):
    """The stand-in agent was started that many times."""
    assert len(list(standin.glob("prompt-*.md"))) == int(count)


def _prompt(standin, number: int) -> str:
    return (standin / f"prompt-{number}.md").read_text()


@then(parsers.parse("the stand-in agent's prompt {number:d} included:"))
def standin_prompt_block(standin, number, docstring):
    """The prompt the stand-in agent got at that attempt contains this block."""
    assert docstring in _prompt(standin, number), _prompt(standin, number)[-3000:]


@then(parsers.parse('the stand-in agent\'s prompt {number:d} included "{text}"'))
def standin_prompt_included(standin, number, text):
    """The prompt the stand-in agent got at that attempt contains the text."""
    assert text in _prompt(standin, number), _prompt(standin, number)[-3000:]


@then(
    parsers.re(
        r'"(?P<name>[^"]+)" holds what the stand-in agent wrote (?P<user>into the user file )?at attempt (?P<attempt>\d+)'
    )
)
def holds_what_standin_wrote(terminal, standin, name, user, attempt):
    """The file holds what the stand-in agent wrote at that attempt."""
    wrote = (standin / f"{'user' if user else 'project'}-{attempt}.toml").read_text()
    assert terminal.file(name).read_text() == wrote


@then(parsers.parse('"{name}" is the starter'))
def is_starter(terminal, name):
    """The file is the starter cupcake.toml (``cupcake init --template``)."""
    from cupcake.init.prompt import template

    assert terminal.file(name).read_text() == template("starter.cupcake.toml")


def _load(terminal, name: str, text: str | None = None):
    from cupcake.compile.compiler import compile_files

    target = terminal.file(name)
    if text is not None:
        target.write_text(text)
    return compile_files([str(target)], str(terminal.project.root), terminal.project.env())


@then(parsers.re(r'the policy file "(?P<name>[^"]+)" loads with (?P<count>\d+) polic(y|ies)'))
def policy_file_loads(terminal, name, count):
    """The policy file compiles without a problem, into that many policies."""
    compiled = _load(terminal, name)
    assert compiled["problems"] == [] and len(compiled["policies"]) == int(count), compiled


@then(parsers.re(r'with every example uncommented, "(?P<name>[^"]+)" loads with (?P<count>\d+) policies'))
def uncommented_loads(terminal, name, count):
    """With every ``# `` example line uncommented, the file compiles without a problem into that many policies."""
    text = terminal.file(name).read_text()
    uncommented = "\n".join(line[2:] if line.startswith("# ") else line for line in text.splitlines())
    compiled = _load(terminal, name, uncommented)
    assert compiled["problems"] == [] and len(compiled["policies"]) == int(count), compiled
