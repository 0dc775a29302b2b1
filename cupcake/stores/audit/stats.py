"""``cupcake audit stats``: decisions per policy and per event, and the slowest runs."""

from __future__ import annotations

from cupcake.stores.audit.record import KINDS

SLOWEST = 5


def summarize(records: list[dict]) -> dict:
    per_policy: dict = {}
    per_event: dict = {}
    for r in records:
        decision = r.get("decision") if r.get("decision") in KINDS else "error"
        event = str(r.get("event") or "?")
        counts = per_event.setdefault(event, {"runs": 0, "decisions": {}})
        counts["runs"] += 1
        counts["decisions"][decision] = counts["decisions"].get(decision, 0) + 1
        decided = r.get("policy")
        names = [m for m in r.get("matched") or () if isinstance(m, str)]
        for name in dict.fromkeys(names + ([decided] if isinstance(decided, str) else [])):
            p = per_policy.setdefault(name, {"matched": 0, "decided": 0, "decisions": {}})
            p["matched"] += 1
            p["decided"] += name == decided
            p["decisions"][decision] = p["decisions"].get(decision, 0) + 1
    timed = [r for r in records if isinstance(r.get("ms"), (int, float))]
    slowest = sorted(timed, key=lambda r: r["ms"], reverse=True)[:SLOWEST]
    times = sorted(r["ms"] for r in timed)
    return {
        "runs": len(records),
        "first": records[0].get("time") if records else None,
        "last": records[-1].get("time") if records else None,
        "median_ms": times[len(times) // 2] if times else None,
        "p95_ms": times[min(len(times) - 1, int(len(times) * 0.95))] if times else None,
        "per_policy": dict(sorted(per_policy.items(), key=lambda kv: (-kv[1]["matched"], kv[0]))),
        "per_event": dict(sorted(per_event.items(), key=lambda kv: (-kv[1]["runs"], kv[0]))),
        "slowest": slowest,
    }


def render(summary: dict) -> list[str]:
    from cupcake.stores.audit.table import cut, input_summary, simple_table, when

    if not summary["runs"]:
        return ["No audit records match."]
    kinds = [k for k in KINDS if any(k in v["decisions"] for v in summary["per_event"].values())]
    out = [
        f"{summary['runs']} runs from {summary['first']} to {summary['last']} "
        f"(median {summary['median_ms']} ms, p95 {summary['p95_ms']} ms)",
        "",
    ]
    out.append("Decisions per policy")
    rows = [
        [cut(name, 40), p["matched"], p["decided"]] + [p["decisions"].get(k, 0) for k in kinds]
        for name, p in summary["per_policy"].items()
    ]
    out += simple_table(["POLICY", "MATCHED", "DECIDED"] + kinds, rows) if rows else ["(no policy matched)"]
    out += ["", "Decisions per event"]
    rows = [[event, e["runs"]] + [e["decisions"].get(k, 0) for k in kinds] for event, e in summary["per_event"].items()]
    out += simple_table(["EVENT", "RUNS"] + kinds, rows)
    out += ["", "Slowest runs"]
    rows = [
        [
            when(r),
            r["ms"],
            r.get("event") or "",
            r.get("tool") or "",
            r.get("decision") or "",
            cut(input_summary(r), 50),
        ]
        for r in summary["slowest"]
    ]
    out += simple_table(["TIME (UTC)", "MS", "EVENT", "TOOL", "DECISION", "INPUT"], rows)
    return out
