"""Which records ``cupcake audit`` shows: the filters and ``--since``."""

from __future__ import annotations

import time
from datetime import UTC

from cupcake.stores.audit.record import KINDS, utc_stamp

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


class QueryError(ValueError):
    """A filter the user gave cannot be understood; the message says what and how to write it."""


def parse_since(text: str, now: float | None = None) -> str:
    """``2h``, ``30m``, ``7d``, ``1w``, ``45s``, or a UTC date/time (``2025-01-31``, ``2025-01-31T09:00``):
    the earliest record time to show, as the log writes times."""
    now = time.time() if now is None else now
    value = text.strip()
    if value[:-1].isdigit() and value[-1:].lower() in UNITS:
        return utc_stamp(now - int(value[:-1]) * UNITS[value[-1].lower()])
    from datetime import datetime

    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise QueryError(
            f"--since {text!r}: give an age such as 30m, 2h, 7d or 1w, or a UTC date/time such as 2025-01-31T09:00"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return utc_stamp(when.timestamp())


class Filters:
    """All given filters must hold; a filter given several times holds when any of its values does."""

    def __init__(self, sessions=(), events=(), decisions=(), policies=(), since=None):
        self.sessions = tuple(sessions or ())
        self.events = {e.lower() for e in events or ()}
        self.decisions = {d.lower() for d in decisions or ()}
        self.policies = set(policies or ())
        self.since = since
        unknown = sorted(self.decisions - set(KINDS))
        if unknown:
            raise QueryError(f"--decision {unknown[0]!r}: the decisions are {', '.join(KINDS)}")

    def __bool__(self) -> bool:
        return bool(self.sessions or self.events or self.decisions or self.policies or self.since)

    def match(self, record: dict) -> bool:
        if self.since and not str(record.get("time", "")) >= self.since:
            return False
        if self.sessions and not any(str(record.get("session") or "").startswith(s) for s in self.sessions):
            return False
        if self.events and str(record.get("event") or "").lower() not in self.events:
            return False
        if self.decisions and str(record.get("decision") or "").lower() not in self.decisions:
            return False
        if self.policies:
            also = record.get("also")  # the other checks that blocked too (a list since it was added)
            named = (
                set(record.get("matched") or ()) | {record.get("policy")} | set(also if isinstance(also, list) else ())
            )
            if not named & self.policies:
                return False
        return True
