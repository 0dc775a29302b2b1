"""The texts the agent is shown, word for word as seed 004's ``read_latest_eval_feedback``,
``get_cumulative_mistakes`` and ``build_feature_prompt`` build them (same lines, marks and order).

Fields are read from the eval file's top-level JSON object; a field of the wrong type counts as absent.
"""

from __future__ import annotations

QUALITY_HEADING = "## Quality Gate Feedback (from automated eval of prior features)"
MISTAKES_HEADING = "## KNOWN REPEATED MISTAKES (from prior features in this campaign \u2014 do NOT repeat these):"

WARN = "\u26a0"  # ⚠
RED = "\U0001f534"  # 🔴
CLIPBOARD = "\U0001f4cb"  # 📋
CHECK = "\u2705"  # ✅
DASH = "\u2014"  # —


def _string(findings: dict, key: str) -> str:
    value = findings.get(key)
    return value if isinstance(value, str) else ""


def mistakes_of(findings: dict) -> list[str]:
    """``repeated_mistakes``: a string or a list of strings; "none" and empty values are ignored.

    Each value is trimmed and kept on one line (it becomes one line of the cumulative list)."""
    value = findings.get("repeated_mistakes")
    values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    found = []
    for item in values:
        if not isinstance(item, str):
            continue
        item = " ".join(part.strip() for part in item.strip().splitlines())
        if item and item.lower() != "none" and item not in found:
            found.append(item)
    return found


def warning_lines(findings: dict) -> list[str]:
    """The lines of the quality-gate block, in seed 004's order; empty when there is nothing to report."""
    lines = []
    compliance = _string(findings, "framework_compliance")
    if compliance in ("warn", "fail"):
        lines.append(
            f"{WARN} FRAMEWORK COMPLIANCE: {compliance}. Update roadmap to {CHECK} after completion. "
            "Add Agents.md round entry. Match spec frontmatter exactly."
        )
    scope = _string(findings, "scope_assessment")
    if scope in ("moderate", "sprawling"):
        lines.append(
            f"{WARN} SCOPE: Previous feature had scope creep ({scope}). Only modify files directly required by "
            "this feature's spec. Do not introduce pages, routes, or components not in the spec."
        )
    for mistake in mistakes_of(findings):
        lines.append(
            f"{RED} REPEATED MISTAKE: {mistake} {DASH} This pattern has occurred in prior features. "
            "Check your implementation specifically for this issue before committing."
        )
    if major_issues(findings):
        lines.append(
            f"{RED} INTEGRATION: Previous feature had major integration issues. Verify server/client component "
            "boundaries. No event handlers on server components. No missing authorization filters."
        )
    notes = _string(findings, "eval_notes").strip()
    if notes:
        lines.append(f"{CLIPBOARD} EVAL NOTES: {notes}")
    return lines


def major_issues(findings: dict) -> bool:
    return _string(findings, "integration_quality") == "major_issues"


def feedback_block(lines, mistakes) -> str:
    """Both sections as seed 004's prompt holds them: each only when it has something to say."""
    sections = []
    if lines:
        sections.append(QUALITY_HEADING + "\n" + "\n".join(lines))
    if mistakes:
        sections.append(MISTAKES_HEADING + "".join(f"\n- {m}" for m in mistakes))
    return "\n".join(sections)
