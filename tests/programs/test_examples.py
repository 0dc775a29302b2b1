"""Every example written on a registry entry is run: the command is read with the registry (through
the wrappers it names) and its effects must be exactly the ones the example lists."""

from __future__ import annotations

import shlex

import pytest

from cupcake import programs
from cupcake.programs import catalogue


def _specs():
    seen = set()
    for name in catalogue.names():
        spec = programs.lookup(name)
        if id(spec) in seen:
            continue
        seen.add(id(spec))
        yield from _tree(spec)


def _tree(spec):
    yield spec
    for key in list(spec.subcommands):
        sub = spec.sub(key)
        if sub.parent is spec and sub.name == key:
            yield from _tree(sub)


EXAMPLES = [(spec, example) for spec in _specs() for example in spec.examples]


def effects(text: str) -> list:
    """The rendered effects of a command and of every command its wrappers run."""
    return sorted(_effects(shlex.split(text), 0))


def _effects(words, depth: int) -> list:
    reading = programs.read(words)
    if reading is None or depth > 8:
        return []
    out = [effect.render() for effect in reading.effects]
    if reading.elsewhere:  # a command run in a container or a pod: named, never this machine's effects
        out.append("elsewhere " + " ".join(w.value for w in reading.elsewhere))
    for inner in ([reading.inner] if reading.inner else []) + [w for w, _same in reading.more]:
        out += _effects([w.value for w in inner], depth + 1)
    return out


@pytest.mark.parametrize("spec, example", EXAMPLES, ids=[e for _s, e in EXAMPLES])
def test_example(spec, example):
    text, _arrow, expected = example.partition(" => ")
    assert _arrow, f"{' '.join(spec.path)}: an example must read `COMMAND => EFFECT; EFFECT` ({example!r})"
    want = [] if expected.strip() == "passes" else sorted(e.strip() for e in expected.split(";"))
    assert effects(text) == want


def test_every_program_has_an_example():
    bare = [
        " ".join(s.path) for s in _specs() if s.parent is None and not s.examples and not s.name.startswith("python -m")
    ]
    assert bare == []


def test_there_are_many_examples():
    assert len(EXAMPLES) > 300
