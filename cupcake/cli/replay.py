"""``cupcake replay``: recorded events (the audit log, or a Claude Code transcript ``.jsonl``) through the
current policies, and what would change: "git.force-push would have blocked 3 of 120 logged calls".

Each call goes through the hook's own pipeline, rehearsed (``cupcake.cli.rehearse``): nothing runs
and nothing is recorded. What the record does not hold is never guessed: a call whose outcome hangs
on it (a file's contents, the session's state then, a value the log cut, a check's command) is
listed as one that cannot be judged (``blind_spots``). And "of M" says what M is: the audit log
holds only the runs in which something matched (unless ``audit_allows = true``), so replay counts,
from the session state Cupcake keeps of every call that went ahead, how many were never logged. A
transcript records calls that were made, so their recorded decision is taken as "allow"."""

from __future__ import annotations

import json
import os

SCHEMA_VERSION = 1
# PreToolUse decisions under which the call went ahead (a session's state then records it).
WENT_AHEAD = ("allow", "context", "approve", "ask")


def audit_events(path: str, since=None):
    """(payload, recorded decision, time, Record) for each tool call of the audit trail at ``path``."""
    from cupcake.agents.recorded import event_of, from_audit
    from cupcake.cli.blind_spots import Record
    from cupcake.stores.audit.reader import read_trail

    for entry in read_trail(path):
        record = entry.record
        if not record or not record.get("tool"):
            continue
        if since and (record.get("time") or "") < since:
            continue
        payload = from_audit(record)
        kept = Record(event_of(payload).tool_input, complete=False)
        yield payload, record.get("decision") or "allow", record.get("time"), kept, record.get("session")


def transcript_events(path: str, since=None):
    """(payload, "allow", time, Record) for each tool call of a Claude Code transcript."""
    from cupcake.agents.recorded import event_of, transcript_calls
    from cupcake.cli.blind_spots import Record

    for payload, stamp in transcript_calls(path, since):
        yield payload, "allow", stamp, Record(event_of(payload).tool_input, complete=True), None


class Tally:
    """What replay found, in the order it is reported."""

    def __init__(self):
        self.total = 0
        self.changes: list = []
        self.unjudged: list = []
        self.by_policy: dict = {}
        self.first_time = None  # the oldest logged call replayed (audit log only)
        self.went_ahead: dict = {}  # (session, tool) -> logged calls that went ahead
        self.warnings: dict = {}  # what the runs told the user, once each, in order

    def data(self, not_logged) -> dict:
        return {
            "schema": SCHEMA_VERSION,
            "events": self.total,
            "judged": self.total - len(self.unjudged),
            "changed": self.changes,
            "by_policy": self.by_policy,
            "cannot_judge": self.unjudged,
            "not_logged": not_logged,
            "warnings": list(self.warnings),
        }


def replay(env, cwd, sources, since=None, json_out: bool = False, out=print, err=print) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.agents.recorded import completed
    from cupcake.cli.blind_spots import unjudged
    from cupcake.cli.rehearse import rehearse
    from cupcake.project import find_root, policy_files
    from cupcake.stores.audit.reader import default_log

    root = find_root(project_dir_in(env), cwd)
    if since:
        from cupcake.stores.audit.query import parse_since

        try:
            since = parse_since(since)
        except ValueError as exc:
            err(f"cupcake replay: --since: {exc}")
            return 2
    if not any(os.path.exists(p) for p in policy_files(root, env)):
        err(f"cupcake replay: no policy file for {root}")
        return 1
    sources = list(sources) or [default_log(env, root)]
    for source in sources:
        if not os.path.exists(source):
            err(f"cupcake replay: {source}: no such file")
            return 2
    tally = Tally()
    audited = False
    settings = None
    for source in sources:
        transcript = source.endswith(".jsonl")
        audited = audited or not transcript
        events = transcript_events if transcript else audit_events
        for payload, recorded, stamp, kept, session in events(source, since):
            tally.total += 1
            outcome = rehearse(completed(payload, root), root, env)
            tally.warnings.update(dict.fromkeys(outcome.warnings))  # a policy out of service, say: told once
            ctx = outcome.ctx
            settings = ctx.settings if settings is None else settings
            event = ctx.incoming
            row = {
                "time": stamp,
                "tool": event.tool if event is not None else None,
                "input": _shown(event, ctx.root or root),
                "was": recorded,
            }
            if not transcript:
                if tally.first_time is None or (stamp or "") < tally.first_time:
                    tally.first_time = stamp
                if recorded in WENT_AHEAD and event is not None and event.name == "PreToolUse":
                    key = (session, event.tool)
                    tally.went_ahead[key] = tally.went_ahead.get(key, 0) + 1
            reasons = unjudged(ctx, kept) + list(outcome.not_run)
            if reasons:
                tally.unjudged.append(row | {"reasons": reasons})
                continue
            now = outcome.decision
            if now != _comparable(recorded):
                tally.changes.append(row | {"now": now, "policy": outcome.policy})
                if outcome.policy:
                    counts = tally.by_policy.setdefault(outcome.policy, {})
                    counts[now] = counts.get(now, 0) + 1
    not_logged = _not_logged(root, settings or {}, tally, since) if audited else None
    for warning in tally.warnings:
        err(warning)
    if json_out:
        out(json.dumps(tally.data(not_logged), indent=2, ensure_ascii=False))
        return 0
    _text(tally, not_logged, audited, out)
    return 0


def _text(tally: Tally, not_logged, audited: bool, out) -> None:
    total = tally.total
    what = "logged call(s)" if audited else "recorded call(s)"
    judged = total - len(tally.unjudged)
    tail = f"; {len(tally.unjudged)} cannot be judged from the record (below)" if tally.unjudged else ""
    of = f"{judged} {what}" + (" that can be judged" if tally.unjudged else "")
    out(f"Replayed {total} {what} through the current policies: {len(tally.changes)} would change{tail}.")
    for name, counts in sorted(tally.by_policy.items()):
        for decision, n in sorted(counts.items()):
            verb = {"block": "blocked", "ask": "asked about", "approve": "approved"}.get(decision, decision)
            out(f"  {name} would have {verb} {n} of {of}")
    for change in tally.changes[:200]:
        out(f"  {change['time'] or ''} {change['tool']}: {change['input'][:120]!r}: {change['was']} -> {change['now']}")
    if tally.unjudged:
        out(f"Cannot be judged ({len(tally.unjudged)}): the outcome hangs on what the record does not hold")
        for row in tally.unjudged[:200]:
            out(f"  {row['time'] or ''} {row['tool']}: {row['input'][:120]!r}: {'; '.join(row['reasons'])}")
    if not_logged is not None:
        out(not_logged["text"])


def _not_logged(root: str, settings: dict, tally: Tally, since) -> dict:
    """How many calls went ahead without a line in the audit log, counted from the session state."""
    if settings.get("audit_allows") is True:
        return {"count": 0, "text": "Not logged: none (audit_allows = true logs every call)."}
    start = max(filter(None, (since, tally.first_time)), default=None)
    counted = _state_calls(root, start)
    head = "Not logged: calls allowed with no policy matching (audit_allows = false)"
    if counted is None:
        return {
            "count": None,
            "text": f"{head}; how many is not known: no session state in .cupcake/state/ covers them"
            " (set audit_allows = true to log every call).",
        }
    from cupcake.stores.state.names import state_name

    logged: dict = {}
    for (session, tool), n in tally.went_ahead.items():
        key = (state_name(session), tool)
        logged[key] = logged.get(key, 0) + n
    count = sum(max(0, n - logged.get(key, 0)) for key, n in counted.items())
    when = f" since {start}" if start else ""
    return {
        "count": count,
        "since": start,
        "text": f"{head}: {count} more call(s) went ahead unlogged{when}, by the session state in .cupcake/state/"
        " (sessions whose state is gone are not counted; audit_allows = true logs every call).",
    }


def _state_calls(root: str, start):
    """(state name, tool) -> tool uses the session logs in ``.cupcake/state/`` recorded since ``start``,
    or None when there is no session state at all."""
    from cupcake.project import WORK_DIR
    from cupcake.stores.state.store import LOG_SUFFIX, STATE_DIR

    folder = os.path.join(root, WORK_DIR, STATE_DIR)
    try:
        names = [n for n in os.listdir(folder) if n.endswith(LOG_SUFFIX)]
    except OSError:
        return None
    if not names:
        return None
    counted: dict = {}
    for file in names:
        try:
            fd = os.open(os.path.join(folder, file), os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        with open(fd, "rb") as f:
            for raw in f:
                try:
                    entry = json.loads(raw)
                except ValueError:
                    continue
                if not isinstance(entry, dict) or not isinstance(entry.get("tool"), str):
                    continue
                stamp = entry.get("timestamp")
                if start and (not isinstance(stamp, str) or stamp < start):
                    continue
                key = (file[: -len(LOG_SUFFIX)], entry["tool"])
                counted[key] = counted.get(key, 0) + 1
    return counted


def _shown(event, root: str) -> str:
    """The command, or the file path (relative to the root when inside it), of a replayed call."""
    if event is None:
        return ""
    command = event.tool_input.get("command")
    if isinstance(command, str) and command:
        return command
    for key in ("file_path", "notebook_path", "path"):
        value = event.tool_input.get(key)
        if isinstance(value, str) and value and "\0" not in value:
            from cupcake.project import shown_path

            return shown_path(value, root, event.cwd)
    return ""


def _comparable(decision: str) -> str:
    """The audit log's decisions in the rehearsal's vocabulary."""
    return {"error": "allow"}.get(decision, decision)
