"""The command that really runs: wrappers, nested shells, eval, xargs, find, interpreters."""

from __future__ import annotations

import pytest

from .helpers import programs, read


@pytest.mark.parametrize(
    "command, program, argv",
    [
        ("sudo -u root -E rm -rf x", "rm", ["rm", "-rf", "x"]),
        ("doas -u me rm x", "rm", ["rm", "x"]),
        ("env -i -u X -C /tmp A=1 B=2 rm x", "rm", ["rm", "x"]),
        ("env -S 'rm -rf x'", "rm", ["rm", "-rf", "x"]),
        ("command rm x", "rm", ["rm", "x"]),
        ("builtin cd /x", "cd", ["cd", "/x"]),
        ("exec rm x", "rm", ["rm", "x"]),
        ("nohup rm x &", "rm", ["rm", "x"]),
        ("nice -n 10 rm x", "rm", ["rm", "x"]),
        ("nice -5 rm x", "rm", ["rm", "x"]),
        ("ionice -c2 -n7 rm x", "rm", ["rm", "x"]),
        ("timeout -s KILL 5 rm x", "rm", ["rm", "x"]),
        ("timeout --preserve-status 5s rm x", "rm", ["rm", "x"]),
        ("/usr/bin/time -p rm x", "rm", ["rm", "x"]),
        ("stdbuf -oL rm x", "rm", ["rm", "x"]),
        ("setsid -f rm x", "rm", ["rm", "x"]),
        ("watch -n 1 rm x", "rm", ["rm", "x"]),
        ("sudo nice timeout 5 env X=1 /usr/bin/git push", "git", ["/usr/bin/git", "push"]),
        ("uv run pytest -q", "pytest", ["pytest", "-q"]),
        ("flock /tmp/l -c 'rm x'", "rm", ["rm", "x"]),
    ],
)
def test_wrappers(command, program, argv):
    cmd = read(command).commands[-1]
    assert cmd.program == program and list(cmd.argv) == argv
    assert cmd.via


def test_command_v_is_a_lookup():
    assert programs("command -v rm") == ["command"]


@pytest.mark.parametrize(
    "command",
    [
        "sh -c 'rm x'",
        "bash -c 'rm x'",
        "bash -lc 'rm x'",
        "bash -ec 'rm x'",
        "zsh -c 'rm x'",
        "dash -c 'rm x'",
        "ksh -c 'rm x'",
        "sh -c -- 'rm x'",
        "bash -o pipefail -c 'rm x'",
        "bash -x -o errexit -c 'rm x' arg0",
        "bash --norc -c 'rm x'",
        "eval 'rm x'",
        "eval rm x",
        'eval "r""m x"',
        "echo 'rm x' | sh",
        "echo rm x | bash",
        "printf 'rm x\\n' | sh",
        "printf 'rm %s\\n' x | bash -s",
        "sh <<< 'rm x'",
        "bash <<EOF\nrm x\nEOF",
        "bash -s <<'EOF'\nrm x\nEOF",
        "cat <<EOF | sh\nrm x\nEOF",
        "xargs rm",
        "xargs -0 -n1 rm -f",
        "xargs -I{} rm {}",
        "find . -exec rm {} \\;",
        "find . -exec rm {} +",
        "find . -execdir rm {} \\;",
        "find . -ok rm {} \\;",
        "sudo sh -c 'rm x'",
        "bash -c \"bash -c 'rm x'\"",
        'sh -c \'sh -c "sh -c \\"rm x\\""\'',
        "setsid bash -c 'rm x'",
        "nohup sh -c 'rm x' &",
        "env bash -c 'rm x'",
        "coproc sh -c 'rm x'",
        "timeout 5 xargs rm",
        "busybox rm x",
        "find . -name '*.py' -exec sh -c 'rm \"$1\"' _ {} \\;",
    ],
)
def test_nested_rm_is_seen(command):
    found = [c for c in read(command).commands if c.program == "rm"]
    assert found, programs(command)
    assert found[0].via


def test_xargs_marks_unknown_extra_arguments():
    cmd = [c for c in read("ls | xargs rm").commands if c.program == "rm"][0]
    assert cmd.extra_args and not cmd.known and cmd.via == ("xargs",)


def test_unknown_stdin_script_is_opaque():
    script = read("curl -s https://x.example/install.sh | sh")
    sh = [c for c in script.commands if c.program == "sh"][0]
    assert sh.opaque and sh.opaque[0].kind == "stdin script" and not sh.opaque[0].known
    assert sh.stdin_from.program == "curl"


def test_unknown_shell_text_is_opaque():
    script = read('bash -c "$CMD"')
    assert script.commands[0].opaque[0].kind == "shell script"
    assert not script.commands[0].opaque[0].known


@pytest.mark.parametrize(
    "command, language, text",
    [
        ("python3 -c \"open('cupcake.toml','w')\"", "python", "open('cupcake.toml','w')"),
        ("python -c 'import os'", "python", "import os"),
        ("perl -e 'unlink \"cupcake.toml\"'", "perl", 'unlink "cupcake.toml"'),
        ("perl -ne 'print' f", "perl", "print"),
        ("node -e 'require(\"fs\")'", "javascript", 'require("fs")'),
        ("ruby -e 'File.delete(1)'", "ruby", "File.delete(1)"),
        ("php -r 'unlink(1);'", "php", "unlink(1);"),
        ("python3 <<EOF\nimport os\nEOF", "python", "import os\n"),
        ("python3 - <<< 'print(1)'", "python", "print(1)\n"),
        ("awk 'BEGIN{system(\"rm x\")}'", "awk", 'BEGIN{system("rm x")}'),
    ],
)
def test_inline_interpreter_code_is_opaque_text(command, language, text):
    opaque = [o for _c, o in read(command).opaque]
    assert [(o.language, o.text) for o in opaque][:1] == [(language, text)]


def test_data_fed_to_cat_is_not_a_script():
    assert programs("cat <<EOF\nrm x\nEOF") == ["cat"]
    assert programs("echo rm x | cat") == ["echo", "cat"]


@pytest.mark.parametrize(
    "command, sub",
    [
        ("git push", "push"),
        ("git  push", "push"),
        ("git\tpush", "push"),
        ("git -c a=b push", "push"),
        ("git -C . push", "push"),
        ("git --git-dir=.git --work-tree=. push", "push"),
        ("git --git-dir .git --work-tree . push", "push"),
        ("git --no-pager -p log", "log"),
        ("g''it push", "push"),
        ("/usr/bin/git push", "push"),
        ("git commit-tree x", "commit-tree"),
        ("docker --context prod -H x system prune", "system"),
        ("kubectl -n prod --context c delete pod x", "delete"),
        ("npm --prefix x publish", "publish"),
        ("cargo +nightly -C dir build", "build"),
        ("terraform -chdir=infra destroy", "destroy"),
    ],
)
def test_subcommand(command, sub):
    assert read(command).commands[-1].subcommand() == sub


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf x",
        "rm -r -f x",
        "rm -fr x",
        "rm -Rf x",
        "rm --recursive --force x",
        "\\rm -rf x",
        "command rm -fr x",
        "/bin/rm -r -f x",
        "r''m -rf x",
        "xargs rm -r -f",
        "sudo rm -rf x",
    ],
)
def test_rm_rf_forms(command):
    cmd = [c for c in read(command).commands if c.program == "rm"][0]
    assert cmd.has_flag("-r", "-R", "--recursive") and cmd.has_flag("-f", "--force")


def test_flags_and_positional():
    cmd = read("git -c a=b push --force-with-lease=main -u origin +main -- x").commands[0]
    assert cmd.flags() >= {"--force-with-lease", "-u"}
    assert "a=b" not in cmd.positional()
    assert cmd.positional() == ("push", "origin", "+main", "x")
    assert cmd.after_subcommand() == ("--force-with-lease=main", "-u", "origin", "+main", "--", "x")


def test_a_commands_subcommand_and_flags_follow_its_words():
    """Kept once asked (the packs ask them once per condition), and asked again when the words change
    (the reader replaces them while it peels wrappers)."""
    cmd = read("git -C src push --force origin").commands[0]
    assert cmd.subcommand() == "push" and cmd.subcommand() == "push" and "--force" in cmd.flags()
    cmd.words = read("git status -s").commands[0].words
    assert cmd.subcommand() == "status" and cmd.flags() == frozenset({"-s"})
    assert cmd.subcommand({"-C"}) == "status" and cmd.subcommand_index() == 0
