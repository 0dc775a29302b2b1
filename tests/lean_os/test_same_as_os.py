"""cupcake.lean_os answers as os does: each path function compared with os.path's on generated paths and
trees, the environment live as os.environ keeps it, makedirs on every kind of folder in the way, and every
other name os's own object."""

from __future__ import annotations

import os
import random
import stat

import pytest

from cupcake import lean_os
from cupcake.lean_os import path as lean_path
from tests.test_resolve import NAMES, random_tree  # the same random trees

PIECES = [
    "a",
    "b",
    "..",
    ".",
    "",
    "~",
    "~root",
    "~nobody-here",
    "x y",
    "é",
    "\n",
    "~/",
    "//",
    "///",
    "\udcff",
    "\ud800",
]


def random_path(rng: random.Random) -> str:
    lead = rng.choice(["", "", "/", "//", "///", "~", "~/", "~root/", "~nobody-here/", "./", "../"])
    return lead + "/".join(rng.choice(PIECES) for _ in range(rng.randint(0, 6)))


@pytest.mark.parametrize(
    "name", ["abspath", "basename", "dirname", "expanduser", "isabs", "normpath", "split", "relpath"]
)  # fmt: skip
def test_each_text_function_answers_as_os_path(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ours, theirs = getattr(lean_path, name), getattr(os.path, name)
    rng = random.Random(name)
    for _ in range(5000):
        path = random_path(rng)
        if name == "relpath" and path:  # from the working folder, and from another path
            start = random_path(rng) or "/"
            assert ours(path, start) == theirs(path, start), (path, start)
        assert _answer(ours, path) == _answer(theirs, path), repr(path)
    for path in ("", "/", "//", "///", "~", "~root", "a/", "a//", "/a/b/", "//a//b//"):
        assert _answer(ours, path) == _answer(theirs, path), repr(path)


def _answer(function, path):
    try:
        return function(path)
    except ValueError as error:  # relpath(""): both refuse it, with the same words
        return str(error)


def test_join_answers_as_os_path_join():
    rng = random.Random(7)
    for _ in range(5000):
        parts = [random_path(rng) for _ in range(rng.randint(1, 4))]
        assert lean_path.join(*parts) == os.path.join(*parts), parts


def test_path_like_arguments_are_read_as_os_reads_them(tmp_path):
    for name in ("abspath", "basename", "dirname", "normpath", "realpath", "isdir", "exists", "split"):
        assert getattr(lean_path, name)(tmp_path) == getattr(os.path, name)(tmp_path), name
    assert lean_path.join(tmp_path, "a") == os.path.join(tmp_path, "a")
    with pytest.raises(TypeError):
        lean_path.join("a", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        lean_path.normpath(None)  # type: ignore[arg-type]


def test_expanduser_without_home_asks_the_password_database(monkeypatch):
    monkeypatch.delenv("HOME", raising=False)
    for path in ("~", "~/x", "~root/x", "~nobody-here/x", "x/~"):
        assert lean_path.expanduser(path) == os.path.expanduser(path), path
    monkeypatch.setenv("HOME", "/")
    assert lean_path.expanduser("~") == os.path.expanduser("~") == "/"
    monkeypatch.setenv("HOME", "/h/")
    assert lean_path.expanduser("~/x") == os.path.expanduser("~/x") == "/h/x"


def test_realpath_and_the_file_tests_answer_as_os_path_on_random_trees(tmp_path, monkeypatch):
    rng = random.Random(1729)
    checked = 0
    for trial in range(10):
        root = str(tmp_path / f"t{trial}")
        os.makedirs(root)
        random_tree(root, rng)
        monkeypatch.chdir(root)
        for _ in range(400):
            path = "/".join(rng.choice([*NAMES, "..", ".", ""]) for _ in range(rng.randint(0, 5)))
            start = rng.random()
            path = (root + "/" + path) if start < 0.5 else ("//" + root + "/" + path) if start < 0.6 else path
            for name in ("realpath", "exists", "lexists", "isfile", "isdir", "islink", "abspath", "getsize"):
                assert _answer_or_error(getattr(lean_path, name), path) == _answer_or_error(
                    getattr(os.path, name), path
                ), (name, path)
                checked += 1
    assert checked > 20000
    for bad in ("a\0b", "/a\0b", "/a\ud800b"):  # a NUL, a lone surrogate (JSON allows one): no file name
        for name in ("exists", "lexists", "isfile", "isdir", "islink"):
            assert getattr(lean_path, name)(bad) is getattr(os.path, name)(bad) is False
        with pytest.raises(ValueError):
            lean_path.realpath(bad)
        with pytest.raises(ValueError):
            os.path.realpath(bad)
    surrogate = str(tmp_path) + "/\udcff"  # the byte 0xff, as os decodes it: a name like any other
    open(surrogate, "w").close()
    assert lean_path.realpath(surrogate) == os.path.realpath(surrogate) and lean_path.isfile(surrogate)


def _answer_or_error(function, path):
    try:
        return function(path)
    except OSError as error:  # getsize of a missing file: the same error
        return type(error), error.errno


def test_realpath_follows_a_link_out_of_a_relative_start(tmp_path, monkeypatch):
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "here").mkdir()
    (tmp_path / "here" / "up").symlink_to(tmp_path / "deep" / "er")
    (tmp_path / "here" / "loop").symlink_to("loop")
    monkeypatch.chdir(tmp_path / "here")
    for path in ("up/..", "up/../x", "../here/up/..", "loop/x", "loop", "./up/./", "", "."):
        assert lean_path.realpath(path) == os.path.realpath(path), path


def test_the_environment_is_read_live_as_os_environ_keeps_it(monkeypatch):
    monkeypatch.setenv("CUPCAKE_LEAN_OS_PROBE", "één")
    assert lean_os.environ["CUPCAKE_LEAN_OS_PROBE"] == "één" == lean_os.environ.get("CUPCAKE_LEAN_OS_PROBE")
    assert "CUPCAKE_LEAN_OS_PROBE" in lean_os.environ
    assert dict(lean_os.environ.items()) == dict(os.environ) == lean_os.environ.copy()
    assert sorted(lean_os.environ) == sorted(os.environ) == sorted(lean_os.environ.keys())
    assert len(lean_os.environ) == len(os.environ)
    assert sorted(lean_os.environ.values()) == sorted(os.environ.values())
    monkeypatch.delenv("CUPCAKE_LEAN_OS_PROBE")
    assert lean_os.environ.get("CUPCAKE_LEAN_OS_PROBE") is None
    assert lean_os.environ.get("CUPCAKE_LEAN_OS_PROBE", "x") == "x"
    assert "CUPCAKE_LEAN_OS_PROBE" not in lean_os.environ and 3 not in lean_os.environ
    with pytest.raises(KeyError):
        lean_os.environ["CUPCAKE_LEAN_OS_PROBE"]


def test_makedirs_makes_what_os_makes_and_fails_where_it_fails(tmp_path):
    for make, base in ((lean_os.makedirs, tmp_path / "lean"), (os.makedirs, tmp_path / "os")):
        base.mkdir()
        make(str(base / "a" / "b" / "c"), 0o700)
        make(str(base / "a" / "b" / "c"), exist_ok=True)
        make(str(base / "x" / "." / "y") + "/", exist_ok=True)
        (base / "file").write_text("")
        for target, exists_ok in (("a/b/c", False), ("file", True), ("file/under", True)):
            with pytest.raises(OSError) as raised:
                make(str(base / target), exist_ok=exists_ok)
            base.joinpath(f"raised-{target.replace('/', '-')}").write_text(type(raised.value).__name__)
    listing = {str(p.relative_to(tmp_path / "lean")) for p in (tmp_path / "lean").rglob("*")}
    assert listing == {str(p.relative_to(tmp_path / "os")) for p in (tmp_path / "os").rglob("*")}
    for target in ("a-b-c", "file", "file-under"):
        assert (tmp_path / "lean" / f"raised-{target}").read_text() == (
            tmp_path / "os" / f"raised-{target}"
        ).read_text()
    assert (tmp_path / "lean" / "a" / "b" / "c").stat().st_mode & 0o777 == 0o700


def test_every_other_name_is_os_s_own():
    for name in lean_os.__all__:
        if name in ("environ", "path", "makedirs", "fdopen", "walk", "sep", "devnull"):
            continue
        theirs = getattr(stat if name.startswith("S_IS") else os, name)
        assert getattr(lean_os, name) is theirs or (isinstance(theirs, int) and getattr(lean_os, name) == theirs), name
    assert (lean_os.sep, lean_os.devnull) == (os.sep, os.devnull)
    for mode in (stat.S_IFDIR | 0o755, stat.S_IFREG | 0o644, stat.S_IFLNK | 0o777, stat.S_IFIFO, 0):
        assert (lean_os.S_ISDIR(mode), lean_os.S_ISLNK(mode), lean_os.S_ISREG(mode)) == (
            stat.S_ISDIR(mode),
            stat.S_ISLNK(mode),
            stat.S_ISREG(mode),
        )


def test_the_standard_library_folder_is_where_os_is():
    from cupcake.protection import install

    assert install._stdlib() == os.path.dirname(os.__file__)


def test_fdopen_and_walk_are_os_s(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f").write_bytes(b"x")
    assert list(lean_os.walk(str(tmp_path))) == list(os.walk(str(tmp_path)))
    fd = os.open(tmp_path / "a" / "f", os.O_RDONLY)
    try:
        with lean_os.fdopen(fd, "rb", closefd=False) as handle:
            assert handle.read() == b"x"
    finally:
        os.close(fd)
    with pytest.raises(TypeError):
        lean_os.fdopen("3", "rb")  # type: ignore[arg-type]


def test_the_python_normpath_answers_as_the_c_one():
    """Interpreters before 3.11.2 have no C normpath: the port answers for them, as posixpath's own."""
    rng = random.Random("normpath")
    for _ in range(20000):
        path = random_path(rng)
        assert lean_path._normpath(path) == os.path.normpath(path), repr(path)
