"""The evaluator's findings (eval_feedback): evals in logs/evals/ and the list of repeated mistakes."""

from __future__ import annotations

import json
import os
import time

from pytest_bdd import given, parsers, then

from tests.features.steps.helpers import _answer

EVAL_DIR = "logs/evals"


MISTAKES = ".cupcake/repeated-mistakes.txt"


@given(parsers.parse('the evaluator wrote "{name}":'))
def evaluator_wrote(project, name, docstring):
    """An eval file in logs/evals/, modified after every eval written before it in the scenario."""
    _write_eval(project, name, docstring)


@given(parsers.parse("the evaluator wrote an eval whose notes are {size:d} characters long"))
def evaluator_wrote_long(project, size):
    """An eval in logs/evals/ whose eval_notes are that many characters long."""
    notes = "\n".join(f"note {i:05d} " + "y" * 60 for i in range(size // 71))
    _write_eval(project, "eval-long.json", json.dumps({"eval_notes": notes}))


def _write_eval(project, name: str, text: str) -> None:
    target = project.root / EVAL_DIR / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text + "\n")
    written = getattr(project, "evals_written", 0) + 1
    project.evals_written = written
    stamp = time.time() - 3600 + written * 10  # whole seconds apart: no file system ties
    os.utime(target, (stamp, stamp))


@given(parsers.parse("the cumulative list of repeated mistakes holds:"))
def mistakes_given(project, docstring):
    """The cumulative list of repeated mistakes (.cupcake/repeated-mistakes.txt) holds the text."""
    target = project.root / MISTAKES
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(docstring + "\n")


@then(parsers.parse("the cumulative list of repeated mistakes holds:"))
def mistakes_then(project, docstring):
    """The cumulative list of repeated mistakes holds exactly the text."""
    assert (project.root / MISTAKES).read_text() == docstring + "\n"


@then("there is no cumulative list of repeated mistakes")
def no_mistakes_list(project):
    """Cupcake wrote no cumulative list of repeated mistakes."""
    assert not (project.root / MISTAKES).exists()


def _eval_record(run):
    from cupcake.evaluator_findings import EXT_KEY

    ctx = _answer(run).ctx
    assert ctx is not None, "the event was not sent in process"
    return ctx.ext.get(EXT_KEY)


@then(parsers.parse('Cupcake noted for the audit trail "{text}"'))
def noted_for_audit(run, text):
    """The evaluator findings stage noted the text for the audit trail."""
    record = _eval_record(run)
    assert record is not None and any(text in note for note in record["notes"]), record


@then("Cupcake did not read the evals")
def evals_not_read(run):
    """The evaluator findings stage did not read the evals (nothing recorded for this run)."""
    assert _eval_record(run) is None
