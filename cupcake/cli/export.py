"""``cupcake export``: send the decisions waiting in a project's telemetry spool now, and say how many.

For a person, cron or a CI job: the same forwarder a run starts in the background, in the foreground.
Exit 0 when nothing waits unsent (or there was nothing to send), 1 when decisions still wait (the
receiver is down or refused them, no endpoint is known, another forwarder is busy): they are kept."""

from __future__ import annotations

import json
import os

from cupcake.agents import project_dir_in
from cupcake.project import find_root

KINDS = {"traces": "spans", "logs": "log records"}


def _roots(paths, env, cwd: str) -> list[str]:
    if not paths:
        return [find_root(project_dir_in(env), cwd)]
    found = []
    for path in paths:
        absolute = os.path.abspath(os.path.join(cwd, os.path.expanduser(str(path))))
        root = find_root(None, absolute if os.path.isdir(absolute) else os.path.dirname(absolute))
        if root not in found:
            found.append(root)
    return found


def _targets(outcome) -> str:
    parts = []
    for signal, (url, origin, withheld) in outcome.targets.items():
        if url:
            parts.append(f"{signal} → {url} (from {origin})")
    return "; ".join(parts)


def describe(outcome) -> list[str]:
    """What one project's export did, in lines for a person."""
    sent = max(outcome.sent.values(), default=0)  # each decision goes once per signal
    lines = [f"{outcome.root}:"]
    where = _targets(outcome)
    if sent:
        kinds = " and ".join(KINDS[s] for s in outcome.sent) if outcome.sent else ""
        lines.append(f"  sent {sent} decision{'s' if sent != 1 else ''} as {kinds}: {where}")
    elif where:
        lines.append(f"  sent nothing new: {where}")
    if outcome.waiting:
        lines.append(
            f"  {outcome.waiting} decision{'s' if outcome.waiting != 1 else ''} still wait (kept for the next try)"
        )
    else:
        lines.append("  nothing waits")
    if outcome.dropped:
        lines.append(
            f"  {outcome.dropped} decision{'s' if outcome.dropped != 1 else ''} dropped unsent: the spool was full "
            "([telemetry] max_spool_bytes) while the receiver could not be reached"
        )
    for signal, (url, origin, withheld) in outcome.targets.items():
        if withheld:
            lines.append(
                f"  the headers {', '.join(withheld)} of OTEL_EXPORTER_OTLP_HEADERS were not sent to {url}: "
                f"{origin} named that endpoint, and credentials go only where the variables or the managed file point"
            )
    lines.extend(f"  {p}" for p in outcome.problems)
    if outcome.error:
        lines.append(f"  stopped: {outcome.error}")
    return lines


def export(paths, env, cwd: str, retries: int, wait: float, json_out: bool, out, err) -> int:
    from cupcake.telemetry.batches import Busy
    from cupcake.telemetry.forward import forward

    outcomes, code = [], 0
    for root in _roots(paths, env, cwd):
        try:
            outcome = forward(root, env, retries=retries, wait=wait)
        except Busy as exc:
            err(f"cupcake export: {root}: {exc}; waited {wait:g} s. Run it again later.")
            code = 1
            continue
        outcomes.append(outcome)
        if outcome.waiting:
            code = 1
        if not json_out:
            for line in describe(outcome):
                out(line)
    if json_out:
        out(json.dumps([o.as_dict() for o in outcomes], indent=2, sort_keys=True))
    return code
