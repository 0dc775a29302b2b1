"""What a command writes: every Bash write of issue "Enforcement the agent cannot switch off" is seen."""

from __future__ import annotations

import pytest

from cupcake.shell import parse, targets

from .helpers import ROOT, hits, read

TOML = ["/p/cupcake.toml"]
CACHE = ["/p/.cupcake/policy.cache"]
CLAUDE = ["/p/.claude", "/p/.claude/settings.json"]
SETTINGS = ["/p/.claude/settings.json"]
ALL = sorted(TOML + CACHE + CLAUDE)


@pytest.mark.parametrize(
    "command, expected",
    [
        # quoting, escapes, ANSI-C, braces, globs
        ("rm cup''cake.toml", TOML),
        ("sed -i d cup\\cake.toml", TOML),
        ("echo x > [c]upcake.toml", TOML),
        ("echo x > cupcake.t?ml", TOML),
        ("rm $'\\x63upcake.toml'", TOML),
        ("rm cupcake.{toml,}", TOML),
        ("echo x > cup''cake.toml; echo x > .cup''cake/forged", TOML + CACHE[:0]),
        # indirection
        ("eval 'rm cupcake.toml'", TOML),
        ("bash -lc 'rm cupcake.toml'", TOML),
        ("sh -c -- 'rm cupcake.toml'", TOML),
        ("echo 'rm cupcake.toml' | sh", TOML),
        ("sh <<< 'rm cupcake.toml'", TOML),
        ("setsid rm cupcake.toml", TOML),
        ("coproc rm cupcake.toml", TOML),
        ("find . -name cupcake.toml -delete", ALL),
        ("find . -exec rm {} \\;", ALL),
        ("echo cupcake.toml | xargs rm", TOML),  # what echo prints is known: xargs hands rm exactly that
        ("cat list | xargs rm", ALL),
        ("bash -c \"sh -c 'rm cupcake.toml'\"", TOML),
        # cwd confusion
        ("(cd /tmp); echo x > cupcake.toml", TOML),
        ("cd /nonexistent 2>/dev/null; rm cupcake.toml", TOML),
        ("pushd /tmp; popd; rm cupcake.toml", TOML),
        ("cd /tmp && cd ~- && rm cupcake.toml", TOML),
        ("HOME=/p; cd; rm cupcake.toml", TOML),
        ("env -C /p rm cupcake.toml", TOML),
        ("cd / && env -C /p rm cupcake.toml", TOML),
        # git
        ("git -C . checkout -- cupcake.toml", TOML),
        ("git -c a=b checkout -- cupcake.toml", TOML),
        ("git -c a=b checkout cupcake.toml", ALL),  # one operand: a path, or a branch to switch to
        ("git checkout .", ALL),
        ("git restore .", ALL),
        ("git stash", ALL),
        ("git reset --hard", ALL),
        ("git clean -fdx", ALL),
        # links, copies, archives
        ("cp -l cupcake.toml x", TOML),
        ("link .claude/settings.json x", SETTINGS),
        ("ln .claude/settings.json x", SETTINGS),
        ("cp -r /tmp/evil/. .", ALL),
        ("cp -rT /tmp/evil .", ALL),
        ("rsync -a /tmp/evil/ .", ALL),
        ("tar -xf evil.tar", ALL),
        ("tar xzf evil.tgz -C /p", ALL),
        ("unzip evil.zip", ALL),
        ("cp /tmp/evil cupcake.toml", TOML),
        ("mv /tmp/evil .claude/settings.json", SETTINGS),
        # other writers
        ("sort -o cupcake.toml x", TOML),
        ("curl -o cupcake.toml https://x", TOML),
        ("curl -sSLo cupcake.toml https://x", TOML),
        ("curl -O https://x/cupcake.toml", TOML),
        ("wget -O cupcake.toml https://x", TOML),
        ("ex -sc 'wq' cupcake.toml", TOML),
        ("vi -c wq cupcake.toml", TOML),
        ("sudo -e cupcake.toml", TOML),
        ("sudoedit .claude/settings.json", SETTINGS),
        ("unzip -d /p x.zip", ALL),
        ("git switch main", ALL),
        ("git stash pop", ALL),
        ("rm -rf *", ALL),
        ("rm -rf ./*/", ALL),  # a trailing slash is not used to rule files out: the safer reading
        ("dd if=/dev/zero of=cupcake.toml", TOML),
        ("truncate -s 0 cupcake.toml", TOML),
        ("touch cupcake.toml", TOML),
        ("tee cupcake.toml < x", TOML),
        ("perl -pi -e 's/a/b/' cupcake.toml", TOML),
        ("chmod 777 cupcake.toml", TOML),
        # the settings directory itself
        ("rm -r .claude", CLAUDE),
        ("mv .claude x", CLAUDE),
        ("mkdir -p .cupcake/x", []),
        ("mkdir /p/cupcake.toml", TOML),
        ("mkfifo cupcake.toml", TOML),
        # nothing protected
        ("echo x > out.txt", []),
        ("rm -rf build", []),
        ("cat cupcake.toml", []),
        ("grep x cupcake.toml > /dev/null", []),
        ("git status", []),
        ("git commit -m 'rm cupcake.toml'", []),
        ("echo 'rm cupcake.toml'", []),
        ("cp cupcake.toml /tmp/backup", []),
    ],
)
def test_protected_paths_written(command, expected):
    assert hits(command) == sorted(expected)


def test_unresolved_targets_are_reported_with_their_text():
    script = read("rm cupcake.toml", cwd=None)
    (write,) = script.writes
    assert write.path is None and write.relative and write.text == "cupcake.toml"
    assert write.could_be("/anything/cupcake.toml")
    (write,) = read("rm $X").writes
    assert not write.word.known and write.text == "$X"


def test_write_kinds_and_flags():
    kinds = [(w.kind, w.path, w.recursive) for w in read("mv a b; rm -rf d; rm e; echo > f").writes]
    assert kinds == [
        ("mv", "/p/a", True),
        ("mv", "/p/b", True),  # b, or b/a when b is a directory: both are said
        ("mv", "/p/b/a", True),
        ("rm", "/p/d", True),
        ("rm", "/p/e", False),  # without -r, rm cannot remove a directory
        ("redirection", "/p/f", False),
    ]
    assert [w.path for w in read("cp -t dir a b").writes] == ["/p/dir/a", "/p/dir/b"]
    (w,) = read("git reset --hard").writes
    assert w.worktree and w.path == ROOT
    (w,) = read("git -C sub reset --hard").writes
    assert w.path == "/p/sub"


def test_targets_keeps_the_older_shape():
    found = targets("rm -r a; echo > ${CLAUDE_PROJECT_DIR}/b", "/p", "/h", "/p", ("CLAUDE_PROJECT_DIR",))
    assert [(t.path, t.kind, t.removes) for t in found] == [("/p/a", "rm", True), ("/p/b", "redirection", False)]
    assert list(found[0].forms())[0] == "/p/a"
    long = targets("x" * 70000, "/p", "/h", "/p")
    assert long and long[-1].kind == "incomplete" and long[-1].could_be("/p/cupcake.toml")


def test_lone_surrogate_never_raises():
    script = parse("rm \ud800/cupcake.toml; cd \udcff && rm x", "/p", "/h", {})
    assert script.commands and script.writes


def test_a_versioned_perl_reads_perls_options():
    # perl5.36 and the like are perl: `-i` edits its file operands in place (the reading is complete)
    script = read("perl5.36 -i -pe 's/a/b/' f.txt")
    assert script.incomplete is None
    assert [(w.kind, w.path) for w in script.writes] == [("perl -i", "/p/f.txt")]
    assert read("perl5.36 -e 'print 1' f.txt").writes == []
