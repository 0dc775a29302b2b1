"""The user's terminal: files the user writes, `cupcake …` commands run, what they print."""

from __future__ import annotations

import json
import os
import shlex
import sys

from pytest_bdd import given, parsers, then, when

from tests.features.steps.helpers import _cupcake_cli, _expand, _stat
from tests.features.steps.init import standin_command


@then(parsers.parse("the output is:"))
def output_is(run, docstring):
    """Exactly what the command printed on stdout."""
    assert run.answer.stdout.decode() == docstring + "\n", run.answer


@then(parsers.parse("the output is the JSON:"))
def output_is_json(run, docstring):
    """What the command printed on stdout is this JSON (compared as data)."""
    assert json.loads(run.answer.stdout) == json.loads(docstring), run.answer


@then(parsers.parse('stderr holds "{text}"'))
def stderr_holds(run, text):
    """What the command printed on stderr contains the text."""
    assert text in run.answer.stderr.decode(), run.answer


@given(parsers.parse('the file "{name}":'))
def given_file(terminal, name, docstring):
    """The user's file (relative to the project, or under ``~/``) holds the text; kept to compare with later."""
    path = terminal.file(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(docstring + "\n")
    terminal.originals[name] = path.read_bytes()


@given(parsers.parse('the file "{name}" with no newline at the end:'))
def given_file_no_newline(terminal, name, docstring):
    """The user's file holds the text with no newline at its end; kept to compare with later."""
    path = terminal.file(name)
    path.write_text(docstring)
    terminal.originals[name] = path.read_bytes()


@given(parsers.parse('the file "{name}" is empty'))
def given_empty_file(terminal, name):
    """The user's file exists and is empty."""
    path = terminal.file(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    terminal.originals[name] = b""


@given(parsers.parse('"{link}" is a symlink to "{target}" holding:'))
def given_symlink(terminal, link, target, docstring):
    """``link`` is a symbolic link to ``target``, which holds the text."""
    target_path = terminal.file(target)
    target_path.parent.mkdir(parents=True, exist_ok=True)
    target_path.write_text(docstring + "\n")
    link_path = terminal.file(link)
    link_path.parent.mkdir(parents=True, exist_ok=True)
    link_path.symlink_to(target_path)


@given("cupcake is on the PATH")
@when("cupcake is on the PATH")
def cupcake_on_path(terminal):
    """The user's PATH finds this installation's `cupcake`."""
    terminal.path_mode = "with cupcake"


@given("a fresh login shell finds cupcake too")
def login_shell_finds_cupcake(terminal):
    """The user's profile puts this installation on every new shell's PATH (as pipx or uv tool's would)."""
    venv_bin = os.path.dirname(os.path.abspath(sys.executable))
    (terminal.project.home / ".profile").write_text(f'PATH="{venv_bin}:$PATH"\nexport PATH\n')


@given("the user's profile sets a PATH without cupcake")
def login_shell_without_cupcake(terminal):
    """A new shell's PATH is the system's: this installation is found only where it is active."""
    (terminal.project.home / ".profile").write_text('PATH="/usr/local/bin:/usr/bin:/bin"\nexport PATH\n')


@given("cupcake is not on the PATH")
def cupcake_not_on_path(terminal):
    """No `cupcake` on the user's PATH."""
    terminal.path_mode = "without cupcake"


@given("another program named cupcake comes first on the PATH")
def other_cupcake_first(terminal):
    """An unrelated program named `cupcake` comes first on the user's PATH."""
    script = terminal.project.bin / "cupcake"
    script.write_text("#!/bin/sh\necho 'other-tool 1.0'\n")
    script.chmod(0o755)


@given(parsers.re(r'the user runs "cupcake (?P<arguments>.*?)"( again)?(?: and answers "(?P<answer>[^"]*)")?'))
@when(parsers.re(r'the user runs "cupcake (?P<arguments>.*?)"( again)?(?: and answers "(?P<answer>[^"]*)")?'))
def user_runs(terminal, run, monkeypatch, request, arguments, answer):
    """The answer, when given, is typed at the first question (without one, questions get no answer)."""
    if "$STANDIN" in arguments:
        arguments = arguments.replace("$STANDIN", shlex.quote(standin_command(request.getfixturevalue("standin"))))
    _cupcake_cli(terminal, run, monkeypatch, arguments, answer)


@then(parsers.parse('the output says "{text}"'))
def output_says(run, text):
    """What the command printed (stdout and stderr) contains the text ($CUPCAKE: this installation's launcher)."""
    assert _expand(text) in run.answer.text, run.answer


@then(parsers.parse('the output does not say "{text}"'))
def output_does_not_say(run, text):
    """Nothing the command printed (stdout and stderr) contains the text."""
    assert _expand(text) not in run.answer.text, run.answer


@then(parsers.parse('the user is warned "{text}"'))
def user_warned(run, text):
    """A line of stderr starting with "warning: " contains the text."""
    warnings = [line for line in run.answer.stderr.decode().splitlines() if line.startswith("warning: ")]
    assert any(_expand(text) in line for line in warnings), run.answer


@then("the user is not warned")
def user_not_warned(run):
    """Nothing on stderr is a warning."""
    assert b"warning:" not in run.answer.stderr, run.answer


@then(parsers.parse('"{name}" is the original'))
def is_original(terminal, name):
    """The file (or its .bak backup) holds, byte for byte, what the user's file held at first."""
    original = terminal.originals.get(name.removesuffix(".bak"))
    assert terminal.file(name).read_bytes() == original


@then(parsers.parse('"{name}" is:'))
def file_is(terminal, name, docstring):
    """The file holds exactly the text, and a newline."""
    assert terminal.file(name).read_text() == docstring + "\n"


@then(parsers.parse('"{name}" was not rewritten'))
def not_rewritten(terminal, name):
    """The file existed before the last command, and that command did not write it (same time, inode, size)."""
    assert terminal.stats_before[name] is not None, f"{name} did not exist before the last command"
    assert _stat(terminal.file(name)) == terminal.stats_before[name]


@then(parsers.parse('"{name}" does not exist'))
def does_not_exist(terminal, name):
    """No file (nor a broken link) of that name."""
    assert not os.path.lexists(terminal.file(name))


@then(parsers.parse('no temporary file is left in "{directory}"'))
def no_temporary_files(terminal, directory):
    """No ``*.tmp`` file is left in the directory (atomic writes cleaned up)."""
    names = sorted(os.listdir(terminal.file(directory)))
    assert all(not name.endswith(".tmp") for name in names), names


@then(parsers.parse('"{name}" is still a symlink'))
def still_symlink(terminal, name):
    """The file is still a symbolic link: the command wrote through it, not over it."""
    assert terminal.file(name).is_symlink()


@then(parsers.parse('the error says "{text}"'))
def error_says(run, text):
    """What the command printed on stderr contains the text."""
    assert text in run.answer.stderr.decode(), run.answer


@when(parsers.parse('the user edits "{name}" to hold:'))
def user_edits(terminal, name, docstring):
    """The user rewrites the file to hold the text."""
    terminal.file(name).write_text(docstring + "\n")


@then(parsers.parse("the output says:"))
def output_says_block(run, docstring):
    """What the command printed contains this block of text."""
    assert docstring in run.answer.text, run.answer


@then(parsers.parse('the JSON output\'s effective decision is "{decision}" by "{kind}"'))
def json_effective_decision(run, decision, kind):
    """`cupcake explain --json`: the effective decision across the agent's layers, and the kind of layer that won."""
    effective = json.loads(run.answer.stdout)["effective"]["effective"]
    assert (effective["decision"], effective["winner"]["kind"]) == (decision, kind), run.answer
