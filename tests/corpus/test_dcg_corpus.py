"""dcg's regression corpus (tests/corpus/dcg, MIT, see its LICENSE) through ``cupcake run`` with every
pack on: per category, what is caught and what is wrongly blocked. The report is printed (``-s``)
and written to the test's output directory; the target is at least 98% agreement on the categories
the packs cover, and no crash on any case."""

from __future__ import annotations

import glob
import os

import tomli

from cupcake import packs
from cupcake.cli.scenarios import payload_for, run_payload

HERE = os.path.dirname(os.path.abspath(__file__))
DCG = os.path.join(HERE, "dcg")
# Categories whose cases are about what the packs decide (the rest: "must not crash" only).
COVERED = ("true_positives", "false_positives", "bypass_attempts", "canonical", "multi_segment", "quoting")
TARGET = 0.98


def cases():
    for path in sorted(glob.glob(os.path.join(DCG, "**", "*.toml"), recursive=True)):
        with open(path, "rb") as f:
            data = tomli.load(f)
        rel = os.path.relpath(path, DCG)
        for case in data.get("case", []):
            command = case.get("command")
            if command is None:
                continue  # a non-command input kind (dcg's hook-shape cases)
            expected = case.get("expected", case.get("expected_decision"))
            yield rel, command, expected


def _category(rel: str) -> str:
    base = os.path.splitext(os.path.basename(rel))[0]
    top = rel.split(os.sep)[0]
    return base if top in ("edge_cases",) or top == rel else top


def run_corpus(tmp_path):
    root = os.path.realpath(tmp_path / "project")
    os.makedirs(root)
    with open(os.path.join(root, "cupcake.toml"), "w") as f:
        names = [n for n in packs.names() if n != "recommended"]
        f.write("imports = [" + ", ".join(f'"cupcake:{n}"' for n in names) + "]\n")
        # The packs on their own: self-protection's blocks (``git pull`` in the project's worktree,
        # ``find -exec rm``) are its own, measured in tests/protection.
        f.write("\n[settings]\nself_protection = false\n")
    env = dict(os.environ, HOME=str(tmp_path / "home"))
    os.makedirs(env["HOME"])
    rows = []
    for rel, command, expected in cases():
        outcome = run_payload(payload_for("PreToolUse", "Bash", {"command": command}, root), root, env)
        blocked = outcome.decision == "block"
        rows.append((_category(rel), rel, command, expected, blocked, outcome))
    return rows


def report(rows) -> tuple[str, float]:
    per: dict = {}
    for category, _rel, _command, expected, blocked, _o in rows:
        stats = per.setdefault(category, {"cases": 0, "agree": 0, "caught": 0, "deny": 0, "wrongly_blocked": 0})
        stats["cases"] += 1
        stats["deny"] += expected == "deny"
        stats["caught"] += expected == "deny" and blocked
        stats["wrongly_blocked"] += expected == "allow" and blocked
        stats["agree"] += (expected == "deny") == blocked
    lines = [f"{'category':<18} {'cases':>5} {'agree':>6} {'caught':>10} {'wrongly blocked':>16}"]
    covered_cases = covered_agree = 0
    for category, s in sorted(per.items()):
        mark = "*" if category in COVERED else " "
        lines.append(
            f"{category:<17}{mark} {s['cases']:>5} {s['agree'] / s['cases']:>6.1%} "
            f"{s['caught']:>4}/{s['deny']:<5} {s['wrongly_blocked']:>16}"
        )
        if category in COVERED:
            covered_cases += s["cases"]
            covered_agree += s["agree"]
    share = covered_agree / covered_cases
    lines.append(f"* covered by the packs: {covered_agree}/{covered_cases} agree ({share:.1%})")
    lines.append("disagreements:")
    for category, rel, command, expected, blocked, outcome in rows:
        if (expected == "deny") != blocked:
            lines.append(f"  {rel}: {command[:90]!r} dcg={expected} cupcake={outcome.decision}")
    return "\n".join(lines), share


def test_dcg_corpus_agreement(tmp_path):
    rows = run_corpus(tmp_path)
    assert len(rows) > 300
    text, share = report(rows)
    print("\n" + text)
    (tmp_path / "dcg_corpus_report.txt").write_text(text)
    crashes = [(rel, cmd, o.failures) for _c, rel, cmd, _e, _b, o in rows if o.failures]
    assert not crashes, crashes[:5]
    assert share >= TARGET, text
