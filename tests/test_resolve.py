"""cupcake.resolve.realpath is os.path.realpath, with each folder looked at once for many paths: compared
on random trees of folders, files, relative and absolute links, loops and dangling links, with paths
holding ``..``, ``.``, empty components, leading slashes and relative paths."""

from __future__ import annotations

import os
import random

from cupcake import resolve
from cupcake.resolve import realpath

NAMES = ["a", "b", "c", "lnk", "loop"]
TRIALS = 12  # trees: links to links, to folders, to missing names, loops, "..": each walks its own way


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
            elif kind < 0.8:  # relative, possibly up and out, possibly a loop, possibly through "." and "//"
                parts = [rng.choice([*NAMES, "..", ".", ""]) for _ in range(rng.randint(1, 3))]
                os.symlink("/".join(parts) or ".", path)
            else:  # absolute, possibly with "//" at its start or inside
                lead = rng.choice(["", "/", "//"])
                os.symlink(
                    lead + root + "/" + "/".join(rng.choice([*NAMES, ""]) for _ in range(rng.randint(1, 3))), path
                )
        except OSError:
            pass


def test_realpath_answers_as_os_path_realpath(tmp_path, monkeypatch):
    rng = random.Random(29)
    checked = walked = 0
    for trial in range(TRIALS):
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
                expected = os.path.realpath(each)
                assert realpath(each, memo) == expected, each
                checked += 1
                if each.startswith("/"):  # the walk's own answer, without os.path.realpath behind it
                    try:
                        assert resolve._walk(each, "/", memo, 0) == expected, each
                        walked += 1
                    except resolve._Unsure:
                        pass  # a loop or a long chain: os.path.realpath answers
    assert checked == TRIALS * 800 * 3
    assert walked > TRIALS * 800  # most absolute paths are the walk's (through links, "..", "//")


def test_a_link_whose_target_climbs_through_another_link_is_walked_as_the_kernel_does(tmp_path):
    """``lnk -> b/../c`` with ``b`` a link elsewhere: ``..`` leaves where ``b`` leads, not where it is
    written (a walk that read the target's ``..`` as text would name the wrong folder)."""
    (tmp_path / "z" / "y").mkdir(parents=True)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "b").symlink_to(tmp_path / "z" / "y")
    (tmp_path / "a" / "lnk").symlink_to("b/../c")
    (tmp_path / "a" / "deep").symlink_to("lnk/d")  # a chain: each link's folder is the last one's target
    memo: dict = {}
    for path in (tmp_path / "a" / "lnk", tmp_path / "a" / "lnk" / "x", tmp_path / "a" / "deep"):
        assert realpath(str(path), memo) == os.path.realpath(path) != os.path.normpath(path)
    assert realpath(str(tmp_path / "a" / "lnk"), memo) == str(tmp_path / "z" / "c")
