"""Pass 2's part of evaluator feedback (seed 004's phase 2, ``blocking = true``): while the newest
eval reports ``integration_quality = "major_issues"``, the agent may not write or edit files. A newer
eval without it lifts the gate. Checked before any policy's hard action.

A Bash command is gated when it would change a file of the project, as Cupcake's Bash reader
(``cupcake.shell``) reads it (``cupcake.protection.bash.project_write``, checked first): a target it cannot resolve could be one; writes elsewhere (``/tmp``,
``/dev/null``) and commands that write nothing (``npm test``) are not gated."""

from __future__ import annotations

from cupcake.evaluator_findings.findings import major_issues, warning_lines
from cupcake.evaluator_findings.inject import newest, record_of

GATE_NAME = "eval_feedback (blocking)"  # how the gate is named where a policy name would be


def gate_reason(ctx, settings: dict, by: str | None = None):
    """The block's reason when the gate is closed, else None. ``by``: for a Bash call, what it would
    change (``cupcake.protection.bash.project_write``)."""
    record = record_of(ctx)
    findings = newest(ctx, settings, record)
    if not findings or not major_issues(findings):
        record["gate"] = "open"
        return None
    record["gate"] = "blocked"
    return (
        f"Quality gate: the latest evaluation ({record['eval']}) found major integration issues. Writing and editing files "
        f"stays blocked until a newer evaluation clears them.{by or ''} Findings:\n"
        + "\n".join(warning_lines(findings))
    )
