"""Binds features/first_hour.feature; its own steps are below (the shared ones are in conftest)."""

from __future__ import annotations

from pytest_bdd import given, parsers, scenarios, then, when

scenarios("first_hour.feature")


@given(parsers.parse('the project file "{path}" starts with a byte order mark and holds:'))
def file_with_bom(project, path, docstring):
    """The text as UTF-8, after the three bytes of a byte order mark (as some Windows editors write)."""
    target = project.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"\xef\xbb\xbf" + docstring.encode() + b"\n")


@given(parsers.parse('the user works in "{subdir}" of a git repository without cupcake.toml'))
def user_in_git_subdir(project, subdir):
    """The project directory is a git repository (it holds .git); the user's shell is in ``subdir``."""
    (project.root / ".git").mkdir()
    project.cwd = project.root / subdir
    project.cwd.mkdir(parents=True, exist_ok=True)
    project.use_project_dir_env = False


@then(parsers.parse('the file "{name}" was written'))
def file_was_written(terminal, name):
    """The file exists now."""
    assert terminal.file(name).is_file()


@when("the user runs the fix")
def runs_the_fix(terminal, run, monkeypatch):
    """Every `cupcake …` command the last fix names, in order, as the user would type them."""
    import re

    from tests.features.steps.helpers import _cupcake_cli

    commands = re.findall(r"`cupcake ([^`]+)`", run.fix)
    assert commands, run.fix
    for arguments in commands:
        done = _cupcake_cli(terminal, run, monkeypatch, arguments)
        assert done.code == 0, done


@then(parsers.parse('"{name}" holds {count:d} line'))
def holds_lines(terminal, name, count):
    """The file holds that many lines."""
    assert len(terminal.file(name).read_text().splitlines()) == count


@then(parsers.parse('"{name}" holds the policy "{policy}"'))
def holds_policy(terminal, name, policy):
    """The policy file holds a policy of that name."""
    assert f'name = "{policy}"' in terminal.file(name).read_text()
