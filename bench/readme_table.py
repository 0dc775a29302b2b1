#!/usr/bin/env python3
"""Write the README's performance table from a bench run's results (bench/results.json).

    python bench/bench.py --scenario 21 --scenario 22 --scenario 23 --scenario 24 --scenario 27 --runs 30
    python bench/readme_table.py                      # rewrites the table in README.md
    python bench/readme_table.py --check              # exits 1 when the tables differ from the results

The README's table sits between ``<!-- performance-table: start -->`` and ``<!-- performance-table: end -->``:
one row per budget of issue 29 (scenarios 21-24, and 27: a deny that offers an approval code), the peak memory beside each, and a line saying
where and how the figures were measured (machine, load, runs, commit). docs/performance.md gets every
scenario of the run between ``<!-- performance-all: start -->`` and ``<!-- performance-all: end -->``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
START, END = "<!-- performance-table: start -->", "<!-- performance-table: end -->"
BUDGET_IDS = (21, 22, 23, 27, 24)
ROW_NAMES = {
    21: "a harmless Bash call, 50 policies + `cupcake:recommended`",
    22: "a 200-character compound command the Bash reader parses",
    23: "a deny (`rm -rf ~`: a policy, a pack and self-protection block it)",
    27: "a deny that offers an approval code (`rm -rf build`, a policy blocks it)",
    24: "a Write of 100 KB, its content scanned for secrets",
}


def table(results: dict) -> str:
    by_id = {s["id"]: s for s in results["scenarios"] if "median_ms" in s}
    missing = [i for i in BUDGET_IDS if i not in by_id]
    if missing:
        raise SystemExit(f"readme_table: the results hold no figures for scenario(s) {missing}: run them first")
    base = results["baseline"]
    load = results.get("load") or [None, None]
    shown_load = "/".join(f"{x:.1f}" for x in load if x is not None) or "not recorded"
    lines = [
        "| budget (issue 29) | median | × `python -c pass` | budget | processor time × | peak memory × (≤ 1.5) |",
        "|---|---|---|---|---|---|",
    ]
    for i in BUDGET_IDS:
        s = by_id[i]
        verdict = "" if s["time_ok"] else " (missed)"
        memory = f"{s['max_rss_ratio']:.2f}×" + ("" if s["mem_ok"] else " (missed)")
        lines.append(
            f"| {i} · {ROW_NAMES[i]} | {s['median_ms']:.1f} ms | {s['ratio_median']:.2f}×{verdict} | "
            f"≤ {s['time_budget']:g}× | {s.get('ratio_cpu', 0):.2f}× | {memory} |"
        )
    lines += [
        "",
        f"Measured {results['created'][:10]} at commit {results.get('git_commit') or '?'}: {results['runs']} "
        f"interleaved runs, regular install, Python {results['python']}, {results['cpus']} CPUs, load average "
        f"{shown_load} (before/after); `python -c pass` {base['median_ms']:.1f} ms, "
        f"{base['max_rss_median_mib']:.1f} MiB. Reproduce: `python bench/bench.py --scenario 21 --scenario 22 "
        "--scenario 23 --scenario 24 --scenario 27 --runs 30 && python bench/readme_table.py`.",
    ]
    return "\n".join(lines)


ALL_START, ALL_END = "<!-- performance-all: start -->", "<!-- performance-all: end -->"


def all_scenarios(results: dict) -> str:
    """Every scenario of the run, for docs/performance.md."""
    base = results["baseline"]
    lines = [
        "| id | scenario | median | × baseline | budget | processor time × | peak memory (× baseline) |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in sorted((s for s in results["scenarios"] if "median_ms" in s), key=lambda s: s["id"]):
        verdict = "" if s["time_ok"] else " (missed)"
        memory = f"{s['max_rss_median_mib']:.1f} MiB ({s['max_rss_ratio']:.2f}×)"
        lines.append(
            f"| {s['id']} | {s['description']} | {s['median_ms']:.1f} ms | {s['ratio_median']:.2f}×{verdict} | "
            f"≤ {s['time_budget']:g}× | {s.get('ratio_cpu', 0):.2f}× | {memory} |"
        )
    load = "/".join(f"{x:.1f}" for x in (results.get("load") or []) if x is not None) or "not recorded"
    lines += [
        "",
        f"{results['runs']} interleaved runs, {results['created'][:10]}, commit {results.get('git_commit') or '?'}, "
        f"Python {results['python']}, {results['cpus']} CPUs, load average {load} (before/after); baseline "
        f"`python -c pass` {base['median_ms']:.1f} ms, {base['max_rss_median_mib']:.1f} MiB.",
    ]
    return "\n".join(lines)


def replace_between(text: str, start: str, end: str, body: str, where: Path) -> str:
    if start not in text or end not in text:
        raise SystemExit(f"readme_table: {where} has no {start} ... {end} markers")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench/readme_table.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--results", type=Path, default=HERE / "results.json")
    ap.add_argument("--readme", type=Path, default=HERE.parent / "README.md")
    ap.add_argument(
        "--docs", type=Path, default=HERE.parent / "docs" / "performance.md", help="every scenario's row goes here"
    )
    ap.add_argument("--check", action="store_true", help="exit 1 when the README's table is not this one")
    args = ap.parse_args(argv)
    results = json.loads(args.results.read_text(encoding="utf-8"))
    changed = False
    for path, start, end, body in (
        (args.readme, START, END, table(results)),
        (args.docs, ALL_START, ALL_END, all_scenarios(results)),
    ):
        text = path.read_text(encoding="utf-8")
        new = replace_between(text, start, end, body, path)
        if new != text:
            changed = True
            if not args.check:
                path.write_text(new, encoding="utf-8")
                print(f"readme_table: wrote the table into {path}")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
