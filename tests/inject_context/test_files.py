"""Files an agent may have tampered with: context files stay inside the project, and nothing hangs on a
FIFO (the evaluator's files: tests/evaluator_findings/test_files.py)."""

from __future__ import annotations

import os

import pytest

from cupcake.inject_context.files import FileProblem, open_inside, open_regular, read_fd


@pytest.fixture
def root(tmp_path):
    root = tmp_path / "project"
    (root / "shared" / "docs").mkdir(parents=True)
    (root / "shared" / "docs" / "rules.md").write_text("inside\n")
    (tmp_path / "secret.txt").write_text("outside\n")
    return root


def read_inside(root, relative):
    data, _more = read_fd(open_inside(str(root), relative), 1000)
    return data.decode()


def test_a_symlink_that_stays_inside_the_project_is_followed(root):
    (root / "docs").symlink_to(root / "shared" / "docs")
    assert read_inside(root, "docs/rules.md") == "inside\n"


@pytest.mark.parametrize("link", ["rules.md", "docs"])
def test_a_symlink_out_of_the_project_is_refused(root, tmp_path, link):
    target = tmp_path / "secret.txt" if link == "rules.md" else tmp_path
    (root / link).symlink_to(target)
    relative = "rules.md" if link == "rules.md" else "docs/secret.txt"
    with pytest.raises(FileProblem, match="leads outside the project root"):
        read_inside(root, relative)


def test_a_fifo_is_refused_without_waiting_for_a_writer(root):
    os.mkfifo(root / "pipe")
    with pytest.raises(FileProblem, match="not a regular file"):
        read_inside(root, "pipe")


def test_a_directory_is_refused(root):
    with pytest.raises(FileProblem, match="not a regular file"):
        read_inside(root, "shared")


def test_reading_stops_at_the_limit_and_says_there_was_more(root):
    (root / "big.txt").write_bytes(b"x" * 5000)
    data, more = read_fd(open_inside(str(root), "big.txt"), 1000)
    assert (len(data), more) == (1000, True)
    data, more = read_fd(open_inside(str(root), "big.txt"), 5000)
    assert (len(data), more) == (5000, False)


def test_open_regular_refuses_a_symlink(root, tmp_path):
    (root / "eval-1.json").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(FileProblem, match="symlink"):
        open_regular(str(root / "eval-1.json"))


def test_a_symlink_swapped_in_after_the_check_is_not_followed(root, tmp_path, monkeypatch):
    import cupcake.inject_context.files as files

    (root / "docs").mkdir()
    (root / "docs" / "rules.md").write_text("inside\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "rules.md").write_text("outside\n")
    checked = files.inside

    def check_then_swap(real_root, relative):
        real = checked(real_root, relative)
        (root / "docs").rename(root / "docs-old")
        (root / "docs").symlink_to(elsewhere)
        return real

    monkeypatch.setattr(files, "inside", check_then_swap)
    with pytest.raises(FileProblem):
        read_inside(root, "docs/rules.md")
