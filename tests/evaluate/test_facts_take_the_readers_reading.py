"""The rule packs' facts take a command's reading from the Bash reader when it is the registry's
reading of its words alone (``Command.reading_alone``) instead of reading the words again: on every
line of the corpora (and lines with xargs, nullglob and wrappers, where the reader's reading is not
that one), the reading taken is the one ``programs.read`` gives, and the facts are the same as when
every command is read again."""

from __future__ import annotations

import pytest

from cupcake import programs
from cupcake.agents.event import Event
from cupcake.evaluate import command_facts
from cupcake.evaluate.event_view import EventView
from cupcake.shell import parse
from tests.shell.helpers import corpus_commands

EXTRA = [
    "find . -name '*.py' | xargs rm -f",
    "echo a b | xargs -n 1 rm",
    "shopt -s nullglob; rm -rf *.tmp build",
    "ls | xargs cat",
    "shopt -s nullglob; cat *.txt notes",
    "sudo -u me env X=1 timeout 5 git -C src push --force",
    "nice -n 5 nohup python3 -c 'import os; os.remove(\"x\")' &",
    "docker exec -it db psql -c 'DROP TABLE x'",
    "git -c alias.x='!rm -rf /' x",
    "IFS=,; x=rm,-rf,/; $x",
    "alias g=git; g push -f",
]


LINES = list(dict.fromkeys(corpus_commands() + EXTRA))


def _shown(reading) -> tuple:
    if reading is None:
        return ()
    values = lambda words: tuple(w.value for w in words) if words is not None else None  # noqa: E731
    return (
        reading.path,
        tuple(
            (e.tag, e.word.value if e.word else None, e.what, e.tree, values(e.base), e.language)
            for e in reading.effects
        ),
        values(reading.operands),
        values(reading.inner),
        values(reading.elsewhere),
        tuple(reading.unknown),
        tuple((n, v.value) for n, v in reading.env),
        reading.extra,
        reading.remap,
        tuple((values(w), same) for w, same in reading.more),
    )


def test_the_corpora_are_read():
    assert len(LINES) > 500


def test_a_reading_taken_from_the_reader_is_the_registrys_reading_of_the_words():
    taken = other = 0
    for line in LINES:
        for cmd in parse(line, "/p", "/h", {"CLAUDE_PROJECT_DIR": "/p"}, check_dirs=False).commands:
            if cmd.reading_alone:
                assert _shown(cmd.reading) == _shown(programs.read(cmd.words)), (line, cmd.argv)
                taken += 1
            elif cmd.reading is not None:
                other += 1
    assert taken > 700 and other > 0  # most commands' readings are taken; xargs and nullglob's are not


def _facts(line: str, full: bool):
    payload = {"tool_name": "Bash", "tool_input": {"command": line}, "cwd": "/p"}
    return command_facts.of(EventView(Event("PreToolUse", payload), "/p"), full)


def _facts_shown(facts) -> tuple:
    return (
        tuple((c.argv, c.via, c.cwd) for c in facts.commands),
        tuple(facts.hidden),
        tuple(facts.sql),
        tuple((w.value, cwd) for w, cwd in facts.reads),
        tuple(w.pattern for w in facts.writes),
        tuple(facts.contents),
    )


@pytest.mark.parametrize("full", [False, True])
def test_the_facts_are_those_of_every_command_read_again(monkeypatch, full):
    taken = [_facts_shown(_facts(line, full)) for line in LINES]
    real_parse = parse

    def parse_without_readings(*args, **kwargs):
        script = real_parse(*args, **kwargs)
        for cmd in script.commands:  # (the facts use a command's reading only to read it again)
            cmd.reading, cmd.reading_alone = None, False
        return script

    monkeypatch.setattr("cupcake.shell.parse", parse_without_readings)
    again = [_facts_shown(_facts(line, full)) for line in LINES]
    for line, a, b in zip(LINES, taken, again):
        assert a == b, line
