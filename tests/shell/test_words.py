"""Words: quoting, escapes, ANSI-C strings, braces, globs, tildes and variables."""

from __future__ import annotations

import pytest

from cupcake.shell import could_match, parse

from .helpers import HOME, ROOT, read


def argv(command, **kw):
    return list(read(command, **kw).commands[0].argv)


@pytest.mark.parametrize(
    "command, expected",
    [
        ("echo 'a b' c", ["echo", "a b", "c"]),
        ('echo "a $HOME" c', ["echo", "a /h", "c"]),
        ("echo a\\ b", ["echo", "a b"]),
        ("rm cup''cake.toml", ["rm", "cupcake.toml"]),
        ('rm cup""cake.toml', ["rm", "cupcake.toml"]),
        ("rm cup\\cake.toml", ["rm", "cupcake.toml"]),
        ("g''it push", ["git", "push"]),
        ("\\rm -rf x", ["rm", "-rf", "x"]),
        ("rm $'\\x63upcake.toml'", ["rm", "cupcake.toml"]),
        ("rm $'\\143upcake.toml'", ["rm", "cupcake.toml"]),
        ("rm $'\\u0063upcake.toml'", ["rm", "cupcake.toml"]),
        ("printf $'a\\nb'", ["printf", "a\nb"]),
        ('echo $"hello"', ["echo", "hello"]),
        ("rm cupcake.{toml,}", ["rm", "cupcake.toml", "cupcake."]),
        ("echo {a..c}", ["echo", "a", "b", "c"]),
        ("echo {1..3}x", ["echo", "1x", "2x", "3x"]),
        ("echo {01..03}", ["echo", "01", "02", "03"]),
        ("echo {a,b}{c,d}", ["echo", "ac", "ad", "bc", "bd"]),
        ("echo '{a,b}'", ["echo", "{a,b}"]),
        ("echo {a}", ["echo", "{a}"]),
        ("echo ~ ~/x", ["echo", HOME, HOME + "/x"]),
        ("echo '~'", ["echo", "~"]),
        ("echo ${HOME}/y $CLAUDE_PROJECT_DIR/z", ["echo", "/h/y", "/p/z"]),
        ("echo $PWD", ["echo", ROOT]),
        ('echo ""', ["echo", ""]),
        ("echo $EMPTY_UNKNOWN", ["echo", "$EMPTY_UNKNOWN"]),
        ("X='a b'; echo $X", ["echo", "a", "b"]),
        ('X="a b"; echo "$X"', ["echo", "a b"]),
    ],
)
def test_words_after_quote_removal(command, expected):
    script = read(command)
    assert list(script.commands[-1].argv) == expected


@pytest.mark.parametrize(
    "command, index, known, glob",
    [
        ("rm [c]upcake.toml", 1, True, True),
        ("rm cupcake.t?ml", 1, True, True),
        ("rm *", 1, True, True),
        ("rm '*'", 1, True, False),
        ("rm $X", 1, False, False),
        ("rm ${X:-a}", 1, False, False),
        ("rm $(echo a)", 1, False, False),
        ("rm `echo a`", 1, False, False),
        ("rm ~other/x", 1, False, False),
        ("rm a{1..1000}", 1, False, True),
    ],
)
def test_word_flags(command, index, known, glob):
    word = read(command).commands[-1].words[index]
    assert (word.known, word.glob) == (known, glob)


@pytest.mark.parametrize(
    "glob, name, expected",
    [
        ("[c]upcake.toml", "cupcake.toml", True),
        ("cupcake.t?ml", "cupcake.toml", True),
        ("*", "cupcake.toml", True),
        ("*.toml", "cupcake.toml", True),
        ("*.json", "cupcake.toml", False),
        ("[!c]upcake.toml", "cupcake.toml", False),
        ("[a-d]upcake.toml", "cupcake.toml", True),
        ("\\*", "cupcake.toml", False),
        ("c*e.t*", "cupcake.toml", True),
    ],
)
def test_glob_could_name(glob, name, expected):
    assert could_match(glob, name) is expected


def test_word_could_name_with_unknown_part():
    word = read("rm $X.toml").commands[0].words[1]
    assert word.could_name("cupcake.toml")
    assert not word.could_name("cupcake.json")


def test_brace_expansion_is_bounded():
    script = read("mkdir -p policies/d{1..600}")
    words = script.commands[0].words
    assert len(words) == 3  # mkdir -p <one unknown word>
    assert not words[2].known
    many = read("echo " + "{a,b}" * 20)
    assert len(many.commands[0].words) == 2 and not many.commands[0].words[1].known


def test_known_values_come_from_the_caller():
    script = parse("rm $TARGET", "/p", "/h", {"TARGET": "cupcake.toml"})
    assert script.commands[0].argv == ("rm", "cupcake.toml")
