"""What a shell command plainly changes: table-driven cases for the reader behind self-protection."""

from __future__ import annotations

import pytest

from cupcake.protection.shell_targets import targets

ROOT = "/p"
HOME = "/h"


def changed(command: str, cwd: str = ROOT):
    return [(t.path, t.kind) for t in targets(command, cwd, HOME, ROOT)]


@pytest.mark.parametrize(
    "command, expected",
    [
        ("echo x > a", [("/p/a", "redirection")]),
        ("echo x>>a", [("/p/a", "redirection")]),
        ("echo x &> a", [("/p/a", "redirection")]),
        ("echo x 2> err.log", [("/p/err.log", "redirection")]),
        ("cmd 2>&1 >&-", []),
        ("cat < a", []),
        ("echo 'x > a'", []),
        ('echo "x > a"', []),
        ("echo x \\> a", []),
        ("echo hi # > a", []),
        ("echo a#b > c", [("/p/c", "redirection")]),
        ("rm -rf -- -weird a/", [("/p/-weird", "rm"), ("/p/a", "rm")]),
        ("mv a b", [("/p/a", "mv"), ("/p/b", "mv")]),
        ("cp -t dir a b", [("/p/dir/a", "cp onto"), ("/p/dir/b", "cp onto"), ("/p/dir", "cp onto")]),
        ("cp a b", [("/p/b", "cp onto")]),
        ("sed -n 's/a/b/p' f", []),
        ("sed -i.bak -e 's/a/b/' f", [("/p/f", "sed -i")]),
        ("dd if=a of=b", [("/p/b", "dd")]),
        ("FOO=1 nohup timeout -s KILL 5 sudo -u me tee -a log", [("/p/log", "tee")]),
        ("cd sub; touch x; cd; touch y", [("/p/sub/x", "touch"), ("/h/y", "touch")]),
        ("cd - && touch x", []),
        (
            "touch ~/x $HOME/y ${HOME}/z ~other/w",
            [("/h/x", "touch"), ("/h/y", "touch"), ("/h/z", "touch"), ("/p/~other/w", "touch")],
        ),
        ("touch $UNKNOWN/x", []),
        ("echo $(rm a) `rm b`", [("/p/a", "rm"), ("/p/b", "rm")]),
        ("diff <(rm a) b", [("/p/a", "rm")]),
        ("sh -c 'rm a; echo > b'", [("/p/a", "rm"), ("/p/b", "redirection")]),
        ("cat > a <<'EOF'\nrm b\nEOF\nrm c", [("/p/a", "redirection"), ("/p/c", "rm")]),
        ("cat <<-END\n\trm b\n\tEND\nrm c", [("/p/c", "rm")]),
        ("if true; then rm a; fi", [("/p/a", "rm")]),
        ("git rm --cached a && git restore b && git status", [("/p/a", "git rm"), ("/p/b", "git restore")]),
        ("ls -la; git log > /dev/null", [("/dev/null", "redirection")]),
    ],
)
def test_what_a_command_changes(command, expected):
    assert changed(command) == expected


@pytest.mark.parametrize(
    "command, found",
    [
        ("cupcake sync --uninstall", True),
        ("/usr/local/bin/cupcake sync --scope local --uninstall", True),
        ("python -m cupcake sync --command=/bin/true", True),
        ("uvx cupcake sync --uninstall", True),
        ("pipx run cupcake sync --uninstall", True),
        ("cupcake sync", False),
        ("cupcake validate --uninstall", False),
        ("echo cupcake sync --uninstall", False),
    ],
)
def test_uninstall(command, found):
    assert any(t.kind == "uninstall" for t in targets(command, ROOT, HOME, ROOT)) is found


def test_an_unquoted_glob_names_what_exists(tmp_path):
    (tmp_path / "a.toml").write_text("")
    (tmp_path / "b.txt").write_text("")
    (tmp_path / ".hidden.toml").write_text("")
    assert [t.path for t in targets("rm *.toml", str(tmp_path), HOME, ROOT)] == [str(tmp_path / "a.toml")]
    assert targets("rm '*.toml'", str(tmp_path), HOME, ROOT)[0].path == str(tmp_path / "*.toml")


def test_reading_stops_quietly_on_unfinished_input():
    for command in ("echo 'open", 'echo "open', "echo $(rm a", "echo `rm a", "cat <<EOF\nrm a", "echo ${HOME"):
        targets(command, ROOT, HOME, ROOT)  # never raises
