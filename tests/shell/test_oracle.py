"""The reader against real bash (``oracle.py``): a corpus of tricky commands and generated
combinations of the constructs issue 27 lists (where the command runs, how a value is built, how
it is used, what wraps it). A claim that disagrees with bash fails; "cannot tell" is a deny and
passes."""

from __future__ import annotations

import itertools
import os
import pathlib
import tomllib

import pytest

from cupcake.shell import parse
from tests.shell import oracle

pytestmark = pytest.mark.skipif(not oracle.available(), reason="needs bubblewrap")

CORPUS = tomllib.loads((pathlib.Path(__file__).parent / "corpus" / "oracle.toml").read_text())["commands"]

PLACES = [
    "",
    "cd sub && ",
    "cd sub; ",
    "(cd sub) && ",
    "pushd sub >/dev/null; ",
    "pushd -n sub >/dev/null; ",
    "cd sub && cd - >/dev/null && ",
    "cd -P link/.. && ",
    "cd link/.. && ",
    "OLDPWD=sub; cd - >/dev/null; ",
    "cd() { builtin cd /tmp; }; cd sub; ",
    "cd() { :; }; cd sub; ",
    "{ cd sub; } && ",
    "if cd sub; then :; fi; ",
    'for d in sub; do cd "$d"; done; ',
]
VALUES = [
    "x=a.txt",
    "x='a b'",
    "x=$(echo a.txt)",
    "x=${y:-a.txt}",
    "printf -v x %s a.txt",
    "read x <<< a.txt",
    "x=a; x+=.txt",
    "IFS=/; x=a/b.txt",
    "set -- a.txt; x=$1",
    "f() { x=$1; }; f a.txt",
    "declare x=a.txt",
    ": ${x:=a.txt}",
    'x="$HOME/a.txt"',
    "x=~/a.txt",
    "x=$'\\x61.txt'",
]
USES = [
    "prog $x",
    'prog "$x"',
    'prog "${x%.txt}".md',
    'echo hi > "$x"',
    "prog ${x}s",
    'env A=1 prog "$x"',
    'timeout 5 prog "$x"',
    'nice -n 1 tool -o "$x"',
    'echo "$x" | xargs prog',
    'find . -maxdepth 1 -name "$x" -exec prog {} +',
    'sh -c \'prog "$1"\' _ "$x"',
    'eval "prog $x"',
]


def _generated():
    combos = list(itertools.product(PLACES, VALUES, USES))
    step = max(1, len(combos) // 400)
    return [p + v + "; " + u for p, v, u in combos[::step]]


CASES = CORPUS + _generated()


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    base = tmp_path_factory.mktemp("oracle")
    return base, oracle.stubs(base)


def _work(base):
    import tempfile

    work = pathlib.Path(tempfile.mkdtemp(dir=base))
    (work / "sub").mkdir()
    (work / "home").mkdir()
    (work / "a.txt").write_text("a\n")
    (work / "b.txt").write_text("b\n")
    (work / "sub" / "a.txt").write_text("sub a\n")
    os.symlink("/tmp", work / "link")
    return work


@pytest.mark.parametrize("command", CASES, ids=[c[:70] for c in CASES])
def test_the_reader_agrees_with_bash(bench, command):
    base, stub_dir = bench
    work = _work(base)
    env = {"PATH": f"{stub_dir}:/usr/bin:/bin"}
    script = parse(command, str(work), str(work / "home"), env)
    calls, changed, _code = oracle.run(command, work, stub_dir)
    if script.unknowns or script.syntax_errors or script.incomplete:
        return  # the reader said it cannot tell: the hook denies
    claimed = [c for c in script.commands if c.program in oracle.STUBS]
    for program, cwd, args in calls:
        ok = any(
            c.program == program
            and (c.cwd is None or os.path.realpath(c.cwd) == os.path.realpath(cwd))
            and (c.extra_args or oracle.args_match(c.words[1:], args, c.fold))
            for c in claimed
        )
        assert ok, f"bash ran {program} {args} in {cwd}; the reader claimed {[(c.argv, c.cwd) for c in claimed]}"
    writes = script.writes
    for path in changed:
        if path.startswith(str(work / ".oracle")):
            continue
        real = os.path.realpath(path)
        assert any(w.could_be(path) or w.could_be(real) or any(f == real for f in w.forms()) for w in writes), (
            f"bash wrote {path}; the reader claimed {writes}"
        )


def test_the_corpus_is_broad():
    assert len(CORPUS) >= 80 and len(CASES) >= 400
