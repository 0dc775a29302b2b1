"""``cupcake replay``: recorded events (the audit log, or a Claude Code transcript ``.jsonl``) through the
current policies, and what would change: "git.force-push would have blocked 3 of 120 calls".
Nothing runs and nothing is recorded (see ``dry_run``). A transcript records calls that were made,
so their recorded decision is taken as "allow"."""

from __future__ import annotations

import json
import os


def audit_events(path: str, since=None):
    """(payload, recorded decision, time) for each tool call of the audit trail at ``path``."""
    from cupcake.agents.recorded import from_audit
    from cupcake.stores.audit.reader import read_trail

    for entry in read_trail(path):
        record = entry.record
        if not record or not record.get("tool"):
            continue
        if since and (record.get("time") or "") < since:
            continue
        yield from_audit(record), record.get("decision") or "allow", record.get("time")


def transcript_events(path: str, since=None):
    """(payload, "allow", time) for each tool call of a Claude Code transcript."""
    from cupcake.agents.recorded import transcript_calls

    for payload, stamp in transcript_calls(path, since):
        yield payload, "allow", stamp


def replay(env, cwd, sources, since=None, json_out: bool = False, out=print, err=print) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.agents.recorded import completed
    from cupcake.cli import dry_run
    from cupcake.project import find_root
    from cupcake.stores.audit.reader import default_log

    root = find_root(project_dir_in(env), cwd)
    if since:
        from cupcake.stores.audit.query import parse_since

        try:
            since = parse_since(since)
        except ValueError as exc:
            err(f"cupcake replay: --since: {exc}")
            return 2
    compiled = dry_run.load(root, env)
    if compiled is None:
        err(f"cupcake replay: no policy file for {root}")
        return 1
    for problem in compiled.get("out_of_service") or ():
        err(f"out of service: {problem}")  # replayed without it, as a run would
    sources = list(sources) or [default_log(env, root)]
    total = 0
    changes = []
    by_policy: dict = {}
    for source in sources:
        if not os.path.exists(source):
            err(f"cupcake replay: {source}: no such file")
            return 2
        events = transcript_events if source.endswith(".jsonl") else audit_events
        for payload, recorded, stamp in events(source, since):
            payload = completed(payload, root)
            total += 1
            verdict = dry_run.evaluate(compiled, payload, root)
            now = verdict.decision
            if now != _comparable(recorded):
                view = verdict.view
                shown = view.command or view.file_path or ""
                changes.append(
                    {
                        "time": stamp,
                        "tool": view.tool,
                        "input": shown,
                        "was": recorded,
                        "now": now,
                        "policy": verdict.policy,
                    }
                )
                if verdict.policy:
                    counts = by_policy.setdefault(verdict.policy, {})
                    counts[now] = counts.get(now, 0) + 1
    if json_out:
        out(json.dumps({"events": total, "changed": changes, "by_policy": by_policy}, indent=2, ensure_ascii=False))
        return 0
    out(f"Replayed {total} recorded call(s) through the current policies: {len(changes)} would change.")
    for name, counts in sorted(by_policy.items()):
        for decision, n in sorted(counts.items()):
            verb = {"block": "blocked", "ask": "asked about", "approve": "approved"}.get(decision, decision)
            out(f"  {name} would have {verb} {n} of {total} call(s)")
    for change in changes[:200]:
        out(f"  {change['time'] or ''} {change['tool']}: {change['input'][:120]!r}: {change['was']} -> {change['now']}")
    return 0


def _comparable(decision: str) -> str:
    """The audit log's decisions in the dry run's vocabulary."""
    return {"error": "allow"}.get(decision, decision)
