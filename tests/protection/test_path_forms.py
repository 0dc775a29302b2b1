"""path_forms.realpath is os.path.realpath, with the folders that are no link checked once for many
paths: compared on random trees of folders, files, relative and absolute links, loops and dangling links,
with paths holding ``..``, ``.``, empty components, leading slashes and relative paths."""

from __future__ import annotations

import os
import random

from cupcake.protection.path_forms import forms, realpath

NAMES = ["a", "b", "c", "lnk", "loop"]


def random_tree(root: str, rng: random.Random) -> None:
    for _ in range(60):
        path = os.path.join(root, *(rng.choice(NAMES) for _ in range(rng.randint(1, 3))))
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            kind = rng.random()
            if kind < 0.4:
                os.makedirs(path, exist_ok=True)
            elif kind < 0.6:
                open(path, "w").close()
            elif kind < 0.8:  # relative, possibly up and out, possibly a loop
                os.symlink(os.path.join(*(rng.choice([*NAMES, ".."]) for _ in range(rng.randint(1, 3)))), path)
            else:
                os.symlink(os.path.join(root, *(rng.choice(NAMES) for _ in range(rng.randint(1, 3)))), path)
        except OSError:
            pass


def test_realpath_answers_as_os_path_realpath(tmp_path, monkeypatch):
    rng = random.Random(29)
    checked = 0
    for trial in range(2):
        root = str(tmp_path / f"t{trial}")
        os.makedirs(root)
        random_tree(root, rng)
        monkeypatch.chdir(root)
        memo: dict = {}  # shared across every path of the tree, as the installation's paths share one
        for _ in range(800):
            path = "/".join(rng.choice([*NAMES, "..", ".", ""]) for _ in range(rng.randint(0, 5)))
            start = rng.random()
            path = (root + "/" + path) if start < 0.6 else ("//" + root + "/" + path) if start < 0.7 else path
            for each in (path, path + "/x", os.path.dirname(path)):
                assert realpath(each, memo) == os.path.realpath(each), each
                checked += 1
    assert checked == 2 * 800 * 3


def test_forms_lists_each_path_as_written_and_resolved(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    path = str(tmp_path / "link" / "file")
    assert forms([path, path]) == [path, str(tmp_path / "real" / "file")]
