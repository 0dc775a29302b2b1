"""Working-directory tracking: each command carries the directory it runs in (None: unknown)."""

from __future__ import annotations

import pytest

from cupcake.shell import parse

from .helpers import HOME, read


def cwds(command, cwd="/p", check_dirs=False):
    script = parse(command, cwd, HOME, {}, check_dirs=check_dirs)
    return [(c.program, c.cwd) for c in script.commands if c.program == "x"]


@pytest.mark.parametrize(
    "command, expected",
    [
        ("x", ["/p"]),
        ("cd /a && x", ["/a"]),
        ("cd sub && x", ["/p/sub"]),
        ("cd /a; x", [None]),  # cd may have failed (not checked against the disk here)
        ("cd; x", [None]),
        ("cd && x", [HOME]),
        ("cd /a && cd - && x", ["/p"]),
        ("cd /a && cd ~- && x", ["/p"]),
        ("(cd /tmp); x", ["/p"]),
        ("(cd /tmp && x)", ["/tmp"]),
        ("cd /tmp | true; x", ["/p"]),
        ("cd /tmp & x", ["/p"]),
        ("cd $D && x", [None]),
        ("cd $(pwd) && x", [None]),
        ("cd /nonexistent 2>/dev/null; x", [None]),
        ("cd /a || x", ["/p"]),
        ("pushd /a && x && popd && x", ["/a", "/p"]),
        ("popd; x", ["/p"]),
        ("pushd /a >/dev/null && pushd /b && popd && x", ["/a"]),
        ("HOME=/e; cd && x", ["/e"]),
        ("HOME=$Y; cd && x", [None]),
        ("HOME=/e cd && x", ["/e"]),
        ("env -C /q x", ["/q"]),
        ("sudo -D /q x", ["/q"]),
        ("if c; then cd /a; fi; x", [None]),
        ("f() { cd /a; }; f; x", [None]),
        ("source env.sh; x", ["/p"]),  # no such script: source fails, nothing changes
        ("eval 'cd /a' && x", ["/a"]),
        ("sh -c 'cd /a'; x", ["/p"]),
        ("cd /a && sh -c 'x'", ["/a"]),
    ],
)
def test_cwd(command, expected):
    assert [c for _p, c in cwds(command)] == expected


def test_cd_to_an_existing_directory_is_taken(tmp_path):
    assert cwds(f"cd {tmp_path}; x", check_dirs=True) == [("x", str(tmp_path))]
    assert cwds(f"cd {tmp_path}/missing; x", check_dirs=True) == [("x", None)]


def test_unknown_start():
    assert read("x", cwd=None).commands[0].cwd is None
    assert read("cd /a && x", cwd=None).commands[1].cwd == "/a"
