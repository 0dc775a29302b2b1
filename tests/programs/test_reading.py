"""How the registry reads arguments: the option spellings a program accepts (a ShellCheck-style
case table), subcommands after global options, wrappers, versioned names, duplicates refused, and
what it says it cannot tell."""

from __future__ import annotations

import subprocess
import sys
import types

import pytest

from cupcake import programs
from cupcake.programs import catalogue
from cupcake.programs.spec import Spec, program
from cupcake.shell.words import ANY, Word


def _effects(words) -> list:
    reading = programs.read(words)
    return sorted(e.render() for e in reading.effects)


@pytest.mark.parametrize(
    "words, expected",
    [
        (["rm", "-rf", "d"], ["deletes d (tree)"]),
        (["rm", "-fr", "d"], ["deletes d (tree)"]),
        (["rm", "-r", "-f", "d"], ["deletes d (tree)"]),
        (["rm", "--recursive", "--force", "d"], ["deletes d (tree)"]),
        (["rm", "--recur", "d"], ["deletes d (tree)"]),
        (["rm", "d", "-r"], ["deletes d (tree)"]),  # GNU: options after operands
        (["rm", "--", "-r"], ["deletes -r"]),
        (["sort", "-oout", "in"], ["reads in", "writes out"]),
        (["sort", "-o", "out", "in"], ["reads in", "writes out"]),
        (["sort", "--output=out", "in"], ["reads in", "writes out"]),
        (["sort", "--output", "out", "in"], ["reads in", "writes out"]),
        (["sort", "--out=out", "in"], ["reads in", "writes out"]),
        (["sort", "-ro", "out", "in"], ["reads in", "writes out"]),
        (["sed", "--in", "s/a/b/", "f"], ["code s/a/b/", "writes f"]),
        (["sed", "--in-pl=.bak", "s/a/b/", "f"], ["code s/a/b/", "writes f"]),
        (["cp", "--targ=d", "a"], ["reads a", "writes d/a"]),
        (["zip", "-TT", "rm x", "-T", "a.zip", "f"], ["reads f", "runs rm x", "writes a.zip"]),
        (["python3", "x.py", "-c", "code"], ["script x.py"]),  # after the script, its own arguments
        (["ssh", "host", "-o", "ProxyCommand=rm x"], []),  # after the host: the remote command
    ],
)
def test_option_spellings(words, expected):
    assert _effects(words) == expected


def test_an_ambiguous_abbreviation_is_refused_by_the_program_and_said():
    reading = programs.read(["git", "diff", "--out=x"])
    assert reading.effects == []
    assert any("could be any of" in u for u in reading.unknown)


def test_an_argument_that_is_not_written_out_could_be_an_option():
    unknown = Word("$X", known=False, tokens=[ANY])
    reading = programs.read([Word("sed"), unknown, Word("f")])
    assert any("could be one of its options" in u for u in reading.unknown)
    assert programs.read([Word("grep"), unknown, Word("f")]).unknown == []  # grep's options change no file


def test_an_option_value_that_is_not_written_out_keeps_its_pattern():
    word = Word("-o$F", known=False, tokens=["-", "o", ANY])
    reading = programs.read([Word("sort"), word, Word("in")])
    written = [e for e in reading.effects if e.tag == "writes"]
    assert len(written) == 1 and written[0].word.pattern() == [ANY]


def test_the_subcommand_after_global_options():
    reading = programs.read(["git", "-C", "src", "-c", "a=b", "--no-pager", "stash", "pop"])
    assert reading.path == ("git", "stash", "pop")
    assert reading.subcommand == "stash"
    assert [w.value for _at, w in reading.chdirs] == ["src"]
    assert programs.read(["git", "stash"]).path == ("git", "stash", "push")
    assert programs.read(["docker", "-H", "tcp://x", "compose", "-f", "c.yml", "up"]).path == (
        "docker",
        "compose",
        "up",
    )


def test_wrappers_give_the_command_they_run():
    reading = programs.read(["env", "-C", "/tmp", "X=1", "Y=2", "rm", "x"])
    assert [w.value for w in reading.inner] == ["rm", "x"]
    assert [(n, v.value) for n, v in reading.env] == [("X", "1"), ("Y", "2")]
    assert [w.value for _at, w in reading.chdirs] == ["/tmp"]
    assert [w.value for w in programs.read(["timeout", "-s", "KILL", "5", "rm", "x"]).inner] == ["rm", "x"]
    assert programs.read(["xargs", "rm"]).extra is True
    assert programs.read(["chroot", "/srv", "rm", "x"]).remap is True
    assert [w.value for w in programs.read(["python3", "-m", "pip", "install", "x"]).inner] == ["pip", "install", "x"]
    assert [w.value for w in programs.read(["cmake", "-E", "remove_directory", "d"]).inner] == ["rm", "-rf", "d"]


@pytest.mark.parametrize(
    "name, found",
    [
        ("python3.12", "python"),
        ("pip3.11", "pip"),
        ("perl5.36", "perl"),
        ("gtar", "tar"),
        ("pythonx", None),
        ("cat2", None),
    ],
)
def test_versioned_names_and_aliases(name, found):
    spec = programs.lookup(name)
    assert (spec.name if spec else None) == found


def test_value_options_for_rules():
    assert {"-C", "-c", "--git-dir"} <= programs.value_options("git")
    assert "--no-pager" not in programs.value_options("git")
    assert programs.value_options("no-such-program") == frozenset()
    assert programs.value_options("node") == frozenset()  # no subcommands: -e's code is an argument


def test_a_name_declared_twice_is_refused(monkeypatch):
    fake = types.ModuleType("cupcake.programs.fake")
    fake.SPECS = (program("cat", "reader"),)
    monkeypatch.setitem(sys.modules, "cupcake.programs.fake", fake)
    monkeypatch.setattr(programs, "FAMILIES", programs.FAMILIES + ("fake",))
    with pytest.raises(programs.DuplicateProgram, match="'cat' is declared in readers"):
        catalogue.names()


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"options": "-o:writes"}, "takes no value"),
        ({"options": "-o=:wrote"}, "unknown effect"),
        ({"options": "o="}, "not an option"),
        ({"options": "-o -o"}, "declared twice"),
        ({"operands": "deletez..."}, "unknown operand effect"),
        ({"colour": 1}, "unknown field"),
    ],
)
def test_a_malformed_entry_is_refused_with_its_name(fields, message):
    with pytest.raises(ValueError, match=message):
        Spec("prog", "tool", fields)


def test_importing_the_registry_loads_no_family():
    code = "import sys, cupcake.programs; print(sorted(m for m in sys.modules if m.startswith('cupcake.programs')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['cupcake.programs']"


def test_the_index_names_every_program_in_its_family():
    """``program_index.py`` is made by ``python -m cupcake.programs``: run it after adding a program. Every
    name leads ``lookup`` to its family; a versioned name answers with its version cut."""
    from cupcake import program_index as index

    loaded = catalogue.load()
    for name, (decl, family) in loaded.items():
        assert programs._family_of(name) == family, "run `python -m cupcake.programs` to rewrite program_index.py"
        spec = programs.lookup(name)
        assert spec is not None and spec.program == decl[0] and spec.family == family, name
        versioned = bool(decl[2].get("versioned"))
        assert (programs._family_of(name, versioned=True) is not None) == versioned, name
        if versioned and name.isidentifier():
            assert programs.lookup(name + "3.12").program == decl[0]
    with open(index.__file__, encoding="utf-8") as handle:
        assert handle.read() == catalogue.index_source(), "run `python -m cupcake.programs` to rewrite program_index.py"
    listed = index.NAMES.strip("\n").split("\n")
    assert len(listed) == len(loaded), "run `python -m cupcake.programs` to rewrite cupcake/program_index.py"
    assert programs._family_of("no-such-program") is None and programs.lookup("rm\tx") is None


def test_the_builtins_the_reader_models_are_the_ones_the_registry_keeps_out_of_the_quick_pass():
    from cupcake.programs.builtins import MODELLED
    from cupcake.shell.builtins import HANDLERS

    assert set(HANDLERS) == MODELLED
