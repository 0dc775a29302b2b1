"""``[settings.eval_feedback]`` with its defaults filled in (when policies are compiled, cold)."""

from __future__ import annotations

DEFAULTS = {
    "enabled": True,
    "dir": "logs/evals",  # seed 004's EVAL_OUTPUT_DIR default, relative to the project root
    "events": ["UserPromptSubmit", "SessionStart"],
    "blocking": False,
}


def eval_feedback_settings(table):
    """The settings a run uses, or None when the feature is off (no table, or ``enabled = false``).

    Writing the table turns the feature on; ``enabled = false`` turns it off without deleting it.
    """
    if not isinstance(table, dict):
        return None
    merged = dict(DEFAULTS)
    merged.update(table)
    if merged["enabled"] is not True:
        return None
    merged["events"] = list(merged["events"])
    return merged
