"""The search for CLAUDE.md files stays bounded and safe on odd trees."""

from __future__ import annotations

import os
import subprocess

from cupcake.init import discovery
from cupcake.init.discovery import discover


def _write(path, text="rule\n"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _found(result):
    return [result.shown(m.path) for m in result.memories if not result.shown(m.path).startswith("../")]


def test_symlinked_folders_are_not_followed(tmp_path):
    root = tmp_path / "p"
    _write(root / "CLAUDE.md")
    _write(tmp_path / "elsewhere" / "CLAUDE.md")
    os.symlink(tmp_path / "elsewhere", root / "link")
    os.symlink(root, root / "loop")
    result = discover(str(root), str(root), {"HOME": str(tmp_path / "home"), "PATH": os.environ["PATH"]})
    assert _found(result) == ["CLAUDE.md"]


def test_the_search_below_stops_after_a_bounded_number_of_folders(tmp_path, monkeypatch):
    monkeypatch.setattr(discovery, "MAX_DIRS", 3)
    root = tmp_path / "p"
    for name in "abcdef":
        _write(root / name / "CLAUDE.md")
    result = discover(str(root), str(root), {"HOME": str(tmp_path / "home"), "PATH": os.environ["PATH"]})
    assert _found(result) == ["a/CLAUDE.md", "b/CLAUDE.md", "c/CLAUDE.md"]
    assert any("stopped searching subdirectories after 3 directories" in str(f) for f in result.findings)


def test_a_nested_repository_is_asked_about_its_own_ignored_folders(tmp_path):
    root = tmp_path / "p"
    _write(root / "vendor" / "lib" / "out" / "CLAUDE.md")
    _write(root / "vendor" / "lib" / "src" / "CLAUDE.md")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "init", "-q", str(root / "vendor" / "lib")], check=True)
    (root / "vendor" / "lib" / ".gitignore").write_text("out/\n")
    result = discover(str(root), str(root), {"HOME": str(tmp_path / "home"), "PATH": os.environ["PATH"]})
    assert _found(result) == ["vendor/lib/src/CLAUDE.md"]
    assert result.findings == []


def test_without_git_ignored_folders_are_searched_and_nothing_breaks(tmp_path):
    root = tmp_path / "p"
    _write(root / "build" / "CLAUDE.md")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".gitignore").write_text("build/\n")
    result = discover(str(root), str(root), {"HOME": str(tmp_path / "home"), "PATH": str(tmp_path / "nothing")})
    assert _found(result) == ["build/CLAUDE.md"]


def test_a_broken_git_is_reported_once_and_the_search_goes_on(tmp_path):
    root = tmp_path / "p"
    _write(root / "build" / "x" / "CLAUDE.md")
    (root / ".git").mkdir()  # not a repository git can read
    fake = tmp_path / "bin" / "git"
    _write(fake, "#!/bin/sh\necho 'fatal: not a git repository' >&2\nexit 128\n")
    fake.chmod(0o755)
    result = discover(str(root), str(root), {"HOME": str(tmp_path / "home"), "PATH": str(fake.parent)})
    assert _found(result) == ["build/x/CLAUDE.md"]
    assert [str(f) for f in result.findings] == [
        f"`git check-ignore` failed in {root}: fatal: not a git repository; ignored folders were searched"
    ]


def test_a_file_too_long_is_cut_at_a_whole_character(tmp_path, monkeypatch):
    monkeypatch.setattr("cupcake.init.memory.MAX_FILE_BYTES", 10)
    root = tmp_path / "p"
    _write(root / "CLAUDE.md", "abcdefghi€€€")
    result = discover(str(root), str(root), {"HOME": str(tmp_path / "home"), "PATH": ""})
    assert result.memories[0].text == "abcdefghi"
    assert [str(f) for f in result.findings] == ["CLAUDE.md: longer than 10 bytes: only the start is used"]
