"""The ``command`` condition: compiling, the sound prefilter, matching what the line would run."""

from __future__ import annotations

import pytest

from cupcake.agents.event import Event
from cupcake.compile.compile_conditions import ConditionReporter, compile_condition
from cupcake.evaluate.command_match import holds, may_hold
from cupcake.evaluate.event_view import EventView
from tests.evaluate.pack_conditions import compiled_pack_conditions


def _compile(cond):
    problems = []

    def report(message, key=None, severity="error"):
        problems.append(message)

    return compile_condition(cond, ConditionReporter(report, ()), "/p"), problems


def _holds(cond, command, root="/p"):
    compiled, problems = _compile(cond)
    assert not problems, problems
    payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": root}
    return holds(compiled, EventView(Event("PreToolUse", payload), root))


RM = {"type": "command", "program": "rm", "flags": ["-r|-R|--recursive", "-f|--force"], "path_outside": ["{project}"]}


@pytest.mark.parametrize(
    "command, expected",
    [
        ("rm -rf /", True),
        ("rm -fr /etc", True),
        ("rm -r -f /", True),
        ("rm --recursive --force /", True),
        ("\\rm -rf /", True),
        ("r''m -rf /", True),
        ("/bin/rm -rf /", True),
        ("cd / && rm -rf usr", True),
        ("rm -rf build", False),
        ("rm -r /", False),
        ("rm -rf ./x/../../etc", True),
        ("echo rm -rf /", False),
    ],
)
def test_rm_outside_the_project(command, expected):
    assert _holds(RM, command) is expected


def test_subcommand_after_global_options_and_not_a_lookalike():
    cond = {"type": "command", "program": "git", "subcommand": "commit"}
    assert _holds(cond, "git -C . -c a=b commit -m x")
    assert not _holds(cond, "git commit-tree x")


def test_multi_word_subcommand():
    cond = {"type": "command", "program": "docker", "subcommand": "system prune"}
    assert _holds(cond, "docker system prune -af")
    assert _holds(cond, "docker --host x system  prune")
    assert not _holds(cond, "docker system df")
    assert not _holds(cond, 'docker "system prune"')  # one word holding a space: docker knows no such command
    assert _holds({"type": "command", "program": "git", "subcommand": ["commit", "stash drop"]}, "git stash drop")


def test_prefilter_is_sound_for_quoting_and_reads_expansions():
    compiled, _ = _compile({"type": "command", "program": "rm"})
    assert not may_hold(compiled, "ls -la")
    assert may_hold(compiled, "r''m -rf /")  # quotes split the name: letters still in order
    assert may_hold(compiled, "$x -rf /")  # an expansion may produce any name
    assert not may_hold(compiled, "echo 'hello'")


def test_the_parser_is_not_imported_when_the_prefilter_fails():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from cupcake.agents.event import Event\n"
        "from cupcake.evaluate.command_match import holds\n"
        "from cupcake.evaluate.event_view import EventView\n"
        "cond = ('command', ('rm',), None, None, None, None, None, None, None, None, None)\n"
        "v = EventView(Event('PreToolUse', {'tool_name': 'Bash', 'tool_input': {'command': 'ls -la'}}), '/p')\n"
        "assert not holds(cond, v)\n"
        "print(any(m.startswith('cupcake.shell') for m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_line_is_parsed_once_per_view():
    payload = {"tool_name": "Bash", "tool_input": {"command": "git push -f && rm -rf /"}, "cwd": "/p"}
    view = EventView(Event("PreToolUse", payload), "/p")
    assert view.script() is view.script()


@pytest.mark.parametrize(
    "cond, message",
    [
        ({"type": "command"}, "give at least one of"),
        ({"type": "command", "flags": ["force"]}, "each `flags` entry lists flags"),
        ({"type": "command", "program": "/bin/rm"}, "`program` is a name"),
        ({"type": "command", "path_outside": ["relative"]}, "`path_outside` entries"),
        ({"type": "command", "args_regex": "("}, "invalid regex"),
        ({"type": "command", "programme": "rm"}, "programme"),
    ],
)
def test_mistakes_are_reported(cond, message):
    compiled, problems = _compile(cond)
    assert compiled is None
    assert any(message in p for p in problems), problems


# Lines of several commands, some of whose program words are globs or unknown parts: the index of
# commands by program (``candidates``) must answer as asking every command does.
MIXED = [
    "ls -la; git status && rm -rf /",
    "ls; /bin/r? -rf /",
    "ls; r[m] -rf /etc",
    "ls; $RM -rf /",
    "echo a | xargs rm -rf",
    "git -C . commit -m x; make -j4; git push --force origin main",
    'for f in *.c; do gcc -c "$f"; done && git commit -qm wip',
    "cd src && make all | tee ../build/log; rm -rf build",
]
CONDITIONS = [
    RM,
    {"type": "command", "program": "git", "subcommand": "commit"},
    {"type": "command", "program": "git", "subcommand": "push", "flags": ["--force|-f"]},
    {"type": "command", "program": ["make", "gcc"]},
    {"type": "command", "program": "tee"},
]


@pytest.mark.parametrize("command", MIXED)
def test_asking_only_the_commands_that_could_be_the_program_answers_as_asking_all(command):
    from cupcake.evaluate.command_match import candidates, command_matches

    for cond in CONDITIONS:
        compiled, problems = _compile(cond)
        assert not problems, problems
        payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": "/p"}
        view = EventView(Event("PreToolUse", payload), "/p")
        view.script()
        facts = view.facts()
        every = [cmd for cmd in facts.commands if command_matches(compiled, cmd, view) is None]
        asked = [cmd for cmd in candidates(facts, compiled[1]) if command_matches(compiled, cmd, view) is None]
        assert sorted(map(id, every)) == sorted(map(id, asked)), (command, cond)
        assert holds(compiled, view) is bool(every)


def _corpus_lines() -> list:
    import tomllib
    from pathlib import Path

    from cupcake.shell.limits import MAX_COMMANDS

    here = Path(__file__).resolve().parent.parent
    lines = list(MIXED)
    for path in (here / "corpus" / "pack_scorecard.toml", here / "shell" / "corpus" / "bypasses.toml"):
        lines += [case["command"] for case in tomllib.loads(path.read_text())["case"]]
    lines += ["; ".join(f"mkdir d{i}" for i in range(MAX_COMMANDS + 10))]  # read only in part
    return lines


def test_the_packs_conditions_answer_on_one_reading_as_each_on_its_own(monkeypatch):
    """One view answers every condition of a line (the line read once, each command's subcommand and
    flags remembered, conditions naming no program of the line answered from the index of programs):
    the same answers as a fresh view per condition that remembers nothing, not even within itself."""
    from cupcake.evaluate import command_match

    conditions = compiled_pack_conditions(("command",))
    assert len(conditions) > 150
    lines = _corpus_lines()
    payloads = [{"tool_name": "Bash", "tool_input": {"command": line}, "cwd": "/p"} for line in lines]
    shared = [EventView(Event("PreToolUse", payload), "/p") for payload in payloads]
    with monkeypatch.context() as m:
        m.setattr(command_match, "_read", lambda cmd, view: [command_match._UNREAD, None])
        # the reading of the line itself is kept (it is not what is compared): facts and memory are not
        alone = [
            [holds(cond, EventView(Event("PreToolUse", payload), "/p", patterns=view.patterns)) for cond in conditions]
            for payload, view in zip(payloads, shared)
        ]
    for line, view, expected in zip(lines, shared, alone):
        assert [holds(cond, view) for cond in conditions] == expected, line
    assert sum(map(sum, alone)) > 100
