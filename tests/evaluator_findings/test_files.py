"""The evaluator's files, which an agent may have tampered with: an eval that is a symlink or nested too
deep is skipped with a note, and the repeated-mistakes list is never written through a symlink."""

from __future__ import annotations

import os

import pytest

from cupcake.evaluator_findings.evals import newest_eval
from cupcake.evaluator_findings.mistakes import add_mistakes, read_mistakes
from cupcake.inject_context.files import FileProblem


@pytest.fixture
def root(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("outside\n")
    return root


def test_an_eval_that_is_a_symlink_is_skipped_with_a_note(root, tmp_path):
    evals = root / "logs" / "evals"
    evals.mkdir(parents=True)
    (evals / "eval-1.json").write_text('{"eval_notes": "real"}')
    os.utime(evals / "eval-1.json", (1000, 1000))
    (evals / "eval-2.json").symlink_to(tmp_path / "secret.txt")
    notes = []
    shown, findings = newest_eval(str(evals), "logs/evals", notes)
    assert (shown, findings) == ("logs/evals/eval-1.json", {"eval_notes": "real"})
    assert notes == ["skipped logs/evals/eval-2.json: it is a symlink (refused: it could lead anywhere)"]


def test_a_deeply_nested_eval_is_skipped_not_a_crash(root):
    evals = root / "evals"
    evals.mkdir()
    (evals / "eval-1.json").write_text("[" * 100000)
    notes = []
    assert newest_eval(str(evals), "evals", notes) == (None, None)
    assert notes and "not valid JSON" in notes[0]


def test_the_mistakes_list_is_never_written_through_a_symlink(root, tmp_path):
    target = tmp_path / "victim.txt"
    target.write_text("keep\n")
    path = root / ".cupcake" / "repeated-mistakes.txt"
    path.parent.mkdir()
    path.symlink_to(target)
    with pytest.raises(OSError):
        add_mistakes(str(path), [], ["new mistake"])
    assert target.read_text() == "keep\n"
    with pytest.raises(FileProblem):
        read_mistakes(str(path))


def test_a_list_written_by_hand_without_a_final_newline_is_continued_on_a_new_line(root):
    path = root / ".cupcake" / "repeated-mistakes.txt"
    path.parent.mkdir()
    path.write_text("first\n\n  first  \nsecond")
    known = read_mistakes(str(path))
    assert known == ["first", "second"]
    assert add_mistakes(str(path), known, ["second", "third"]) == ["third"]
    assert path.read_text() == "first\n\n  first  \nsecond\nthird\n"
