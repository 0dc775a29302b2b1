"""Structure: every simple command that would run is found, nested ones included; data is not run."""

from __future__ import annotations

import pytest

from .helpers import programs, read


@pytest.mark.parametrize(
    "command, expected",
    [
        ("a; b && c || d | e |& f & g", ["a", "b", "c", "d", "e", "f", "g"]),
        ("a\nb\n\nc", ["a", "b", "c"]),
        ("(a; b)", ["a", "b"]),
        ("{ a; b; }", ["a", "b"]),
        ("echo $(a; b) `c`", ["a", "b", "c", "echo"]),
        ('echo "$(rm x)"', ["rm", "echo"]),
        ("diff <(a) >(b)", ["a", "b", "diff"]),
        ("if a; then b; elif c; then d; else e; fi", ["a", "b", "c", "d", "e"]),
        ("while a; do b; done; until c; do d; done", ["a", "b", "c", "d"]),
        ("for x in 1 2; do b; done", ["b", "b"]),
        ("for ((i=0; i<3; i++)); do b; done", ["b"]),
        ("case $x in a) b;; c|d) e;; *) f;; esac", ["b", "e", "f"]),
        ("f() { rm x; }; f", ["f", "rm"]),  # the call, then its body
        ("function g { rm y; }", []),  # defined, never called: nothing runs
        ("! rm x", ["rm"]),
        ("coproc rm x", ["rm"]),
        ("coproc NAME { rm x; }", ["rm"]),
        ("time rm x", ["rm"]),
        ("time -p rm x", ["rm"]),
        ("[[ $(rm x) == y ]] && z", ["rm", "[[", "z"]),
        ("(( $(rm x) + 1 ))", ["rm"]),
        ("x=$(rm y)", ["rm"]),
        ("echo ${X:-$(rm y)}", ["rm", "echo"]),
        ("a # b; c", ["a"]),
        ("echo a#b; c", ["echo", "c"]),
        ("cat <<EOF\n$(rm x)\nEOF", ["rm", "cat"]),
        ("cat <<'EOF'\n$(rm x)\nEOF", ["cat"]),
        ("cat <<-EOF\n\trm x\n\tEOF\nls", ["cat", "ls"]),
        ("a | while read l; do rm $l; done", ["a", "read", "rm"]),
    ],
)
def test_commands_found(command, expected):
    assert programs(command) == expected
    assert read(command).incomplete is None  # read to the end (an internal error would stop it)


@pytest.mark.parametrize(
    "command, expected",
    [
        # a loop whose first pass changes the state is walked again, what it repeats exactly dropped
        ("for f in $(ls); do x=$f; rm $x; done", [("ls",), ("rm", "$x")]),
        ("for f in a b; do cd $f; touch t; done", [("cd", "a"), ("touch", "t"), ("cd", "b"), ("touch", "t")]),
        ("for ((i=0; i<3; i++)); do n=$i; rm $n; done", [("rm", "$n")]),
        ("for x; do y=$x; rm $y; done", [("rm", "$y")]),
        ("while read l; do n=$l; rm $n; done", [("read", "l"), ("rm", "$n")]),
        ("until false; do d=$(date); cd $d; done", [("false",), ("date",), ("cd", "$d")] * 2),  # (another cwd)
        ("if a; then x=1; else x=2; fi; rm $x", [("a",), ("rm", "$x")]),
        ("case $1 in a) y=1;; *) y=2;; esac; rm $y", [("rm", "$y")]),
        ("f() { z=1; }; f; rm $z", [("f",), ("rm", "1")]),
        ("coproc { cd /; }; rm x", [("cd", "/"), ("rm", "x")]),
        ("(( n = 1 )); rm $n", [("rm", "$n")]),
    ],
)
def test_a_compound_command_that_changes_the_state_is_read_to_the_end(command, expected):
    script = read(command)
    assert script.incomplete is None
    assert [c.argv for c in script.commands] == expected


@pytest.mark.parametrize(
    "command",
    [
        'grep "rm -rf" file',
        "echo 'git push --force'",
        'git commit -m "rm -rf /"',
        "cat <<EOF\nrm -rf /\ngit push --force\nEOF",
        "echo rm -rf /",
        "printf '%s\\n' 'sudo rm -rf /'",
        "# rm -rf /",
    ],
)
def test_data_is_not_execution(command):
    found = programs(command)
    assert "rm" not in found and "sudo" not in found and "push" not in found
    assert all(c.subcommand() != "push" for c in read(command).commands)


def test_redirections():
    script = read("cmd >a 2>>b &>c &>>d >|e <>f 3>&1 2>&- <g <<<h 4>i")
    ops = [(r.op, r.fd, r.target.value, r.writes) for r in script.commands[0].redirects]
    assert ops == [
        (">", None, "a", True),
        (">>", 2, "b", True),
        ("&>", None, "c", True),
        ("&>>", None, "d", True),
        (">|", None, "e", True),
        ("<>", None, "f", True),
        (">&", 3, "1", False),
        (">&", 2, "-", False),
        ("<", None, "g", False),
        ("<<<", None, "h", False),
        (">", 4, "i", True),
    ]


def test_heredoc_body():
    script = read("cat > out <<-'END'\n\tline $x\n\tEND\n")
    (redirect,) = [r for r in script.commands[0].redirects if r.op == "<<-"]
    assert redirect.body == "line $x\n" and redirect.body_known
    script = read("cat <<EOF\nhello $HOME\nEOF")
    assert script.commands[0].redirects[0].body == "hello /h\n"


def test_unterminated_quote_is_flagged_and_read():
    script = read("echo 'abc")
    assert script.commands[0].argv == ("echo", "abc")
    assert script.syntax_errors


def test_assignments_and_command():
    cmd = read("A=1 B=$(x) prog arg").commands[-1]
    assert cmd.program == "prog" and [a[0] for a in cmd.assignments] == ["A", "B"]
