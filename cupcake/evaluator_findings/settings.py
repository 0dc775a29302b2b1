"""``[settings.eval_feedback]`` with its defaults filled in (when policies are compiled, cold)."""

from __future__ import annotations

DEFAULTS: dict[str, object] = {
    "enabled": True,
    "dir": "logs/evals",  # seed 004's EVAL_OUTPUT_DIR default, relative to the project root
    "events": ["UserPromptSubmit", "SessionStart"],
    "blocking": False,
}


def eval_feedback_settings(table: object) -> dict[str, object] | None:
    """The settings a run uses, or None when the feature is off (no table, or ``enabled = false``).

    Writing the table turns the feature on; ``enabled = false`` turns it off without deleting it.
    """
    if not isinstance(table, dict):
        return None
    merged = {**DEFAULTS, **table}
    if merged["enabled"] is not True:
        return None
    events = merged["events"]
    if isinstance(events, (list, tuple)):  # a copy the run may keep; anything else the compiler reports
        merged["events"] = list(events)
    return merged
