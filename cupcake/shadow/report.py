"""``cupcake shadow report``: what ``.cupcake/shadow.log`` holds, summed up: how many events the
candidate would have decided otherwise, which decisions changed (enforced → candidate), which rules
made the difference, what each observed policy would have done, and the latest events."""

from __future__ import annotations

import json

from cupcake.stores.audit.table import cut, input_summary, simple_table, when

RECENT = 10


def describe_sets(compiled: dict) -> list[str]:
    """One line per set evaluated beside the enforced one (for ``validate``)."""
    lines = []
    candidate = compiled.get("shadow")
    if candidate is not None:
        n = len(candidate.get("policies") or ())
        lines.append(
            f"shadow: the candidate {candidate.get('file')} ({n} {'policy' if n == 1 else 'policies'}, with the "
            "user's file) is evaluated beside the enforced set and never decides; `cupcake shadow report` shows "
            "where they differ"
        )
    observed = compiled.get("observe")
    if observed is not None:
        names = [p[0] for p in observed.get("policies") or ()]
        shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        lines.append(
            f"observe: {len(names)} {'policy' if len(names) == 1 else 'policies'} recorded, not enforced: {shown}"
        )
    return lines


def summarize(records: list[dict], since: str | None = None) -> dict:
    if since:
        records = [r for r in records if str(r.get("time", "")) >= since]
    changes: dict[str, int] = {}
    rules: dict[str, dict[str, int]] = {}
    observed: dict[str, dict[str, int]] = {}
    differences = []
    unknown = 0
    for r in records:
        unknown += bool(r.get("unknown"))
        candidate = r.get("candidate")
        given = r.get("enforced")
        enforced: dict = given if isinstance(given, dict) else {}
        if isinstance(candidate, dict):
            differences.append(r)
            change = f"{enforced.get('decision')} -> {candidate.get('decision')}"
            changes[change] = changes.get(change, 0) + 1
            before = set(enforced.get("matched") or ())
            after = set(candidate.get("matched") or ())
            for name in after - before:
                _count(rules, name, "only_candidate")
            for name in before - after:
                _count(rules, name, "only_enforced")
            if candidate.get("policy") != enforced.get("policy"):
                if isinstance(candidate.get("policy"), str):
                    _count(rules, candidate["policy"], "decides_in_candidate")
                if isinstance(enforced.get("policy"), str):
                    _count(rules, enforced["policy"], "decides_enforced")
        for name, would in (r.get("observed") or {}).items():
            _count(observed, name, str(would))
    return {
        "events": len(records),
        "first": records[0].get("time") if records else None,
        "last": records[-1].get("time") if records else None,
        "differences": len(differences),
        "changes": dict(sorted(changes.items(), key=lambda kv: (-kv[1], kv[0]))),
        "rules": dict(sorted(rules.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))),
        "observed": dict(sorted(observed.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))),
        "not_comparable": unknown,
        "recent": differences[-RECENT:],
    }


def _count(table: dict, name: str, key: str) -> None:
    row = table.setdefault(name, {})
    row[key] = row.get(key, 0) + 1


def render(summary: dict, compiled: dict | None) -> list[str]:
    out = []
    sets = describe_sets(compiled or {})
    out.extend(sets or ["No shadow candidate and no observed policy is configured (see docs/living-with-rules.md)."])
    out.append("")
    if not summary["events"]:
        out.append("Nothing recorded yet: no event has been decided otherwise by the candidate or an observed policy.")
        return out
    out.append(
        f"{summary['events']} {'event' if summary['events'] == 1 else 'events'} recorded from {summary['first']} to {summary['last']}: "
        f"the candidate decides {summary['differences']} of them otherwise"
    )
    if summary["not_comparable"]:
        out.append(
            f"({summary['not_comparable']} had a part the shadow evaluation cannot know: a run_command, or a "
            "condition on session state)"
        )
    if summary["changes"]:
        out += ["", "Decisions (enforced -> candidate)"]
        out += simple_table(["CHANGE", "EVENTS"], [[k, v] for k, v in summary["changes"].items()])
    if summary["rules"]:
        out += ["", "Rules that make the difference"]
        rows = [
            [
                cut(name, 40),
                r.get("decides_in_candidate", 0),
                r.get("decides_enforced", 0),
                r.get("only_candidate", 0),
                r.get("only_enforced", 0),
            ]
            for name, r in summary["rules"].items()
        ]
        out += simple_table(["RULE", "DECIDES (CAND.)", "DECIDES (ENF.)", "MATCHES ONLY CAND.", "ONLY ENF."], rows)
    if summary["observed"]:
        out += ["", "Observed policies (recorded, not enforced): what they would have done"]
        kinds = sorted({k for counts in summary["observed"].values() for k in counts})
        rows = [[cut(name, 40)] + [c.get(k, 0) for k in kinds] for name, c in summary["observed"].items()]
        out += simple_table(["POLICY"] + [k.upper() for k in kinds], rows)
    if summary["recent"]:
        out += ["", "Latest differences"]
        rows = [
            [
                when(r),
                r.get("tool") or r.get("event") or "",
                f"{r['enforced'].get('decision')} -> {r['candidate'].get('decision')}",
                cut(r["candidate"].get("policy") or r["enforced"].get("policy") or "", 30),
                cut(input_summary(r), 50),
            ]
            for r in summary["recent"]
        ]
        out += simple_table(["TIME (UTC)", "TOOL", "DECISION", "RULE", "INPUT"], rows)
    return out


def report(env, cwd, since=None, json_out: bool = False, out=print) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.project import find_root
    from cupcake.shadow.log import read

    root = find_root(project_dir_in(env), cwd)
    compiled = _compiled(root, env)
    summary = summarize(read(root), since)
    if json_out:
        sets = describe_sets(compiled or {})
        out(json.dumps({"root": root, "configured": sets, **summary}, indent=2, ensure_ascii=False))
    else:
        for line in render(summary, compiled):
            out(line)
    return 0


def _compiled(root: str, env):
    import os

    from cupcake.compile.compiler import compile_files
    from cupcake.project import policy_files

    files = [p for p in policy_files(root, env) if os.path.exists(p)]
    return compile_files(files, root, env) if files else None
