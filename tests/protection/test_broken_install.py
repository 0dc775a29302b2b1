"""A module missing from the installation (a broken install), through the installed executable: the
Bash reader, self-protection and the rule packs' facts load some of their modules only for the lines
that need them, and a line that needs a missing one ends exactly as a line does when one of the
modules every reading loads is missing: the reader's part, a deny that says Cupcake could not read the
line; self-protection's, a deny that it could not check the call; the packs' facts, the answer any
policy evaluation gives when it breaks (fail_mode "open": a note; "closed": a block)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from tests.conftest import Installation, installed_package

# A regular install serves modules from its bundle (its record says which files are the bundled ones); an
# editable one has neither.
BUNDLED = (Path(installed_package()) / "modules.bundle").exists()

_COUNT = itertools.count()
POLICY = """[[policy]]
name = "No rm"
matcher = "Bash"
conditions = [{ type = "command", program = "rm" }]
action = { type = "block_with_feedback", feedback_message = "No rm." }
"""

# (a module loaded only for some lines, a line that needs it; the module every reading of such a line loads)
READER = "shell/walker.py"
PROTECTION = "protection/bash.py"
FACTS = "evaluate/command_facts.py"
CASES = [
    ("shell/grammar.py", "ls build && touch build/x", READER),  # (a plain line is read without them)
    ("shell/lexer.py", "ls build && touch build/x", READER),
    ("shell/runs.py", "sh -c 'ls build'", READER),
    ("shell/runs.py", "python3 -c 'print(1)'", READER),
    ("shell/variables.py", "FOO=1 ls build", READER),
    ("shell/braces.py", "mkdir -p build/{a,b}", READER),
    ("shell/builtins.py", "cd build && ls", READER),
    ("shell/state_builtins.py", "export X=1 && ls", READER),
    ("shell/printed.py", "echo $(date) > build/stamp", READER),
    ("shell/output.py", "ls | wc -l", READER),
    ("programs/finding.py", "find build -name '*.o' -delete", READER),
    ("programs/filesystem.py", "shred build/x", READER),
    ("programs/files.py", "touch build/x", READER),
    ("resolve.py", "touch build/x", "protection/path_forms.py"),  # (also the policies' compiling: as its importer)
    ("protection/person_commands.py", "pip install -e .", PROTECTION),
    ("protection/code_names.py", "python3 -c 'print(1)'", PROTECTION),
    ("protection/contents.py", "tar -xf build/a.tar", PROTECTION),
    ("evaluate/hidden_code.py", "python3 -c \"import os; os.system('rm -rf build')\"", FACTS),
]


def _answer(project, missing: str, command: str, closed: bool = False):
    """The answer of an installation of its own, from which ``missing`` was removed."""
    project._installation = Installation(project.root.parent / f"installation-{next(_COUNT)}")
    site = project.installation.copy_package(record=BUNDLED)  # the bundle too: a missing file is never served
    (site / "cupcake" / missing).unlink()
    args = ["--event", "PreToolUse"] + (["--fail-closed"] if closed else [])
    return project.send_process(project.tool_call("Bash", {"command": command}), args=args)


@pytest.fixture
def reading(project):
    project.write_policy(POLICY)
    (project.root / "build").mkdir()
    return project


@pytest.mark.parametrize("missing, command, core", CASES, ids=[f"{m} {c}" for m, c, _ in CASES])
def test_a_missing_module_ends_as_a_missing_core_module_does(reading, missing, command, core):
    answer = _answer(reading, missing, command)
    assert answer.code == 0 and answer.json is not None, answer
    expected = _answer(reading, core, command)
    name = lambda path: "cupcake." + path[:-3].replace("/", ".")  # noqa: E731 - the module as Python names it
    assert answer.stdout.replace(name(missing).encode(), b"M") == expected.stdout.replace(name(core).encode(), b"M")
    if core == READER:
        assert "Cupcake could not read all of it (internal error: ModuleNotFoundError)" in answer.model_text()
    elif core == PROTECTION:
        assert "could not check this call safely (ModuleNotFoundError), so it is blocked" in answer.model_text()
    elif core != FACTS:  # the policies could not be compiled: the answer any broken installation gives
        assert "could not evaluate policies" in answer.json["systemMessage"]
    else:  # the policies could not be evaluated: fail_mode "open" says so, "closed" blocks
        assert "could not evaluate policies" in answer.json["systemMessage"]
        closed = _answer(reading, missing, command, closed=True)
        assert "could not evaluate policies, so this is blocked" in closed.model_text(), closed


def test_the_quick_pass_needs_nothing_the_reader_loads(reading):
    """A harmless call is let through without the reader: its modules missing change nothing there."""
    site = reading.installation.copy_package(record=BUNDLED)
    for module in (
        "shell/walker.py",
        "shell/grammar.py",
        "shell/runs.py",
        "protection/bash.py",
        "evaluate/command_facts.py",
    ):
        (site / "cupcake" / module).unlink()
    answer = reading.send_process(reading.tool_call("Bash", {"command": "ls -la"}))
    assert (answer.code, answer.stdout, answer.stderr) == (0, b"", b"")
