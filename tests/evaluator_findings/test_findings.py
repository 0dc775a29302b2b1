"""The evaluator's findings read from one eval: the lines the agent is shown (seed 004's order and
marks), the repeated mistakes, the gate, and the settings with their defaults. Through a fake context
where a run is needed (tests/systems/conftest.py)."""

from __future__ import annotations

import json

from cupcake.evaluator_findings import EXT_KEY
from cupcake.evaluator_findings.findings import (
    MISTAKES_HEADING,
    QUALITY_HEADING,
    feedback_block,
    major_issues,
    mistakes_of,
    warning_lines,
)
from cupcake.evaluator_findings.gate import gate_reason
from cupcake.evaluator_findings.inject import inject_eval_feedback
from cupcake.evaluator_findings.settings import eval_feedback_settings

FINDINGS = {
    "framework_compliance": "warn",
    "scope_assessment": "sprawling",
    "repeated_mistakes": ["Missing auth\n  filter", "none", 3, "Missing auth filter"],
    "integration_quality": "major_issues",
    "eval_notes": "  Fix the forms.  ",
}


def test_the_lines_come_in_seed_004s_order_with_its_marks():
    lines = warning_lines(FINDINGS)
    assert [line.split(":", 1)[0] for line in lines] == [
        "\u26a0 FRAMEWORK COMPLIANCE",
        "\u26a0 SCOPE",
        "\U0001f534 REPEATED MISTAKE",
        "\U0001f534 INTEGRATION",
        "\U0001f4cb EVAL NOTES",
    ]
    assert lines[-1] == "\U0001f4cb EVAL NOTES: Fix the forms."
    assert warning_lines({"framework_compliance": "pass", "eval_notes": 7}) == []


def test_repeated_mistakes_are_one_line_each_without_none_or_repeats():
    assert mistakes_of(FINDINGS) == ["Missing auth filter"]
    assert mistakes_of({"repeated_mistakes": "Stale cache"}) == ["Stale cache"]
    assert mistakes_of({"repeated_mistakes": {"a": 1}}) == []


def test_each_section_only_when_it_has_something_to_say():
    assert feedback_block([], []) == ""
    assert feedback_block(["x"], []) == QUALITY_HEADING + "\nx"
    assert feedback_block([], ["a", "b"]) == MISTAKES_HEADING + "\n- a\n- b"
    assert major_issues(FINDINGS) and not major_issues({"integration_quality": "minor"})


def test_the_settings_fill_in_their_defaults_and_enabled_false_turns_them_off():
    assert eval_feedback_settings(None) is None
    assert eval_feedback_settings({"enabled": False}) is None
    filled = eval_feedback_settings({"blocking": True})
    assert filled == {
        "enabled": True,
        "dir": "logs/evals",
        "events": ["UserPromptSubmit", "SessionStart"],
        "blocking": True,
    }
    assert eval_feedback_settings({"events": ("SessionStart",)})["events"] == ["SessionStart"]


def _eval(fakes, findings: dict) -> None:
    folder = fakes.root / "logs" / "evals"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "eval-1.json").write_text(json.dumps(findings))


def test_the_gate_closes_on_major_issues_and_says_so(fakes):
    ctx = fakes.context("", tool="Write", tool_input={"file_path": "a.py"})
    settings = eval_feedback_settings({"blocking": True})
    assert gate_reason(ctx, settings) is None  # no eval yet: open
    assert ctx.ext[EXT_KEY]["gate"] == "open"
    closed = fakes.context("", tool="Write", tool_input={"file_path": "a.py"})
    _eval(fakes, FINDINGS)
    reason = gate_reason(closed, settings)
    assert reason.startswith("Quality gate: the latest evaluation (logs/evals/eval-1.json) found major integration")
    assert closed.ext[EXT_KEY]["gate"] == "blocked"


def test_the_findings_become_context_and_the_mistakes_join_the_list(fakes):
    _eval(fakes, FINDINGS)
    ctx = fakes.context("", event="UserPromptSubmit", tool=None)
    inject_eval_feedback(ctx, eval_feedback_settings({}))
    [text] = ctx.contexts
    assert text.startswith(QUALITY_HEADING) and text.endswith(MISTAKES_HEADING + "\n- Missing auth filter")
    assert (fakes.root / ".cupcake" / "repeated-mistakes.txt").read_text() == "Missing auth filter\n"
    assert ctx.ext[EXT_KEY]["added"] == ["Missing auth filter"]
