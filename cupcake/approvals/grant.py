"""``cupcake allow``: a person turns the code from a block message into a grant for that exact call.

    cupcake allow K7QX-4M2P                                  # once
    cupcake allow K7QX-4M2P --for 2h                         # every time, for two hours
    cupcake allow K7QX-4M2P --always --reason "our CI does"  # always, with the reason recorded
    cupcake allow --list                                     # codes offered (never the codes) and grants
    cupcake allow --revoke <id>                              # take a grant back

Wrong codes are counted: after ``MAX_WRONG`` within ``WINDOW`` seconds every pending code is
withdrawn and no code is accepted until the window has passed (the next block offers a new one).
Every grant, refusal and revocation goes into the audit trail, whether or not audit logging is on."""

from __future__ import annotations

import json
import time
from typing import NoReturn

from cupcake import lean_os as os
from cupcake.approvals import NOTES, store
from cupcake.approvals.codes import code_hash, normalized, same
from cupcake.errors import CupcakeError

MAX_WRONG = 5
WINDOW = 15 * 60
ONCE_SECONDS = 24 * 3600  # a "once" grant not used within a day lapses
_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


class Refused(CupcakeError):
    """The code was not accepted; the message says why."""


def parse_duration(text: str) -> float:
    value = text.strip().lower()
    if len(value) >= 2 and value[:-1].isdigit() and value[-1] in _UNITS and int(value[:-1]) > 0:
        return int(value[:-1]) * _UNITS[value[-1]]
    raise CupcakeError(f"--for {text!r}: give a duration such as 30m, 2h, 1d or 1w")


def person() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError):
        return os.environ.get("USER") or str(os.getuid())


def _key(env) -> bytes:
    from cupcake.approvals.at_block import key_of

    key = key_of(env)
    if key is None:
        raise CupcakeError("Cupcake has no per-user secret here, so no code was ever offered: run `cupcake sync` once")
    return key


def allow(env, cwd, code: str, duration=None, always: bool = False, reason=None, out=print) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.project import find_root

    if always and not (reason or "").strip():
        raise CupcakeError('--always needs --reason "…": why this exact call may always go ahead is recorded')
    if always and duration:
        raise CupcakeError("give --for or --always, not both")
    seconds = parse_duration(duration) if duration else None
    root = find_root(project_dir_in(env), cwd)
    key = _key(env)
    now = time.time()
    with store.Locked(root, key) as held:
        recent = [t for t in held.data["wrong"] if now - t < WINDOW]
        if len(recent) >= MAX_WRONG:
            wait = int(WINDOW - (now - min(recent))) // 60 + 1
            _refuse(root, held, f"too many wrong codes: none is accepted for {wait} more minute(s)")
        typed = normalized(code)
        found = None
        if typed is not None:
            hashed = code_hash(key, typed)
            for entry in held.data["pending"]:
                if same(entry.get("code", ""), hashed):
                    found = entry
                    break
        if found is None:
            held.data["wrong"] = recent + [now]
            withdrawn = len(held.data["wrong"]) >= MAX_WRONG
            if withdrawn:
                held.use(held.data["pending"])
                held.data["pending"] = []
            why = "no pending approval has this code (mistyped, expired after 15 minutes, or already used)"
            if withdrawn:
                why += (
                    f"; after {MAX_WRONG} wrong codes every pending code is withdrawn (the next block offers a new one)"
                )
            _refuse(root, held, why)
        scope = "always" if always else "until" if seconds else "once"
        grant = {
            "id": found["id"],
            "call": found["call"],
            "rule": found["rule"],
            "event": found.get("event"),
            "tool": found.get("tool"),
            "input": found.get("input"),
            "agent": found.get("agent"),
            "session": found.get("session"),
            "scope": scope,
            "until": None if always else now + (seconds or ONCE_SECONDS),
            "reason": (reason or "").strip() or None,
            "by": person(),
            "at": now,
        }
        held.data["pending"] = [e for e in held.data["pending"] if e is not found]
        held.use([found])
        held.data["grants"].append(store.sealed(key, grant, "grants"))
        held.data["wrong"] = recent
        held.save()
    what = {"once": "once", "until": f"for {duration}", "always": "always"}[scope]
    _audit(root, "ApprovalGranted", "approve", grant, f"granted {what} by {grant['by']}", reason)
    out(f"Allowed {what}: {_call_text(grant)}, which {grant['rule']} blocks (id {grant['id']}).")
    out("Ask the agent to try the same call again." if scope == "once" else "The agent may make this call again.")
    return 0


def _refuse(root: str, held, why: str) -> NoReturn:
    held.save()
    _audit(root, "ApprovalRefused", "block", {}, why, None)
    raise Refused(why)


def revoke(env, cwd, grant_id: str, out=print) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.project import find_root

    root = find_root(project_dir_in(env), cwd)
    key = _key(env)
    with store.Locked(root, key) as held:
        found = [g for g in held.data["grants"] if g.get("id") == grant_id]
        if not found:
            raise CupcakeError(f"no grant has the id {grant_id!r} (`cupcake allow --list` shows them)")
        held.data["grants"] = [g for g in held.data["grants"] if g.get("id") != grant_id]
        held.save()
    _audit(root, "ApprovalRevoked", "block", found[0], f"revoked by {person()}", None)
    out(f"Revoked {grant_id}: {_call_text(found[0])} is blocked by {found[0]['rule']} again.")
    return 0


def listing(env, cwd, json_out: bool = False, out=print) -> int:
    from cupcake.agents import project_dir_in
    from cupcake.project import find_root

    root = find_root(project_dir_in(env), cwd)
    if not store.exists(root):
        data: dict = {"pending": [], "grants": []}
    else:
        with store.Locked(root, _key(env), create=False) as held:
            data = {"pending": held.data["pending"], "grants": held.data["grants"]}
    pending = [{k: v for k, v in e.items() if k not in ("code", "seal", "call")} for e in data["pending"]]
    grants = [{k: v for k, v in g.items() if k not in ("seal", "call")} for g in data["grants"]]
    if json_out:
        out(json.dumps({"root": root, "pending": pending, "grants": grants}, indent=2, ensure_ascii=False))
        return 0
    out(f"Codes offered, waiting for a person ({len(pending)}; the codes themselves are never stored):")
    for e in pending:
        out(f"  {e['id']}  {e['rule']}: {_call_text(e)}  (expires {_time(e.get('expires'))})")
    out(f"Grants ({len(grants)}):")
    for g in grants:
        until = "always" if g["scope"] == "always" else f"{g['scope']}, until {_time(g.get('until'))}"
        why = f", reason: {g['reason']}" if g.get("reason") else ""
        out(f"  {g['id']}  {g['rule']}: {_call_text(g)}  ({until}; by {g['by']} at {_time(g.get('at'))}{why})")
    return 0


def _call_text(entry: dict) -> str:
    value = entry.get("input")
    given: dict = value if isinstance(value, dict) else {}
    shown = given.get("command") or given.get("file_path") or given.get("path") or json.dumps(given)
    return f"{entry.get('tool') or entry.get('event')} `{shown}`"


def _time(seconds) -> str:
    if not isinstance(seconds, (int, float)):
        return "-"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


def _audit(root: str, event: str, decision: str, entry: dict, message: str, reason) -> None:
    """A line in the audit trail for a grant, a refusal or a revocation (audit logging on or not)."""
    from cupcake import __version__, speedups
    from cupcake.project import WORK_DIR
    from cupcake.stores.audit.record import utc_stamp
    from cupcake.stores.audit.writer import AuditWriteError, append

    note = message + (f"; reason: {reason}" if reason else "")
    record = {
        "time": utc_stamp(time.time()),
        "session": entry.get("session"),
        "event": event,
        "tool": entry.get("tool"),
        "input": entry.get("input") or {},
        "agent": entry.get("agent"),
        "matched": [entry["rule"]] if entry.get("rule") else [],
        "policy": entry.get("rule"),
        "decision": decision,
        "message": f"cupcake allow: {note}",
        "context": "",
        "commands": [],
        "failures": [],
        "warnings": [],
        "notes": {NOTES: [f"{note} (id {entry.get('id')})" if entry.get("id") else note]},
        "version": __version__,
        "ms": None,
    }
    try:
        append(os.path.join(root, WORK_DIR), speedups.json_dumps(record))
    except (AuditWriteError, OSError) as exc:
        raise CupcakeError(f"done, but the audit trail could not record it: {exc}") from None
