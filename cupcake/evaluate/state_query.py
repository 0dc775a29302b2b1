"""Evaluate ``state_exists`` / ``state_missing`` against a loaded summary.

A compiled state condition is ``(kind, filter, count, within)``: it exists when at least ``count``
entries match the filter (in the last ``within`` seconds, when given); missing is its negation."""

from __future__ import annotations

import time

from cupcake.errors import CupcakeError


def matching(stats: dict, key, within, now: float) -> int:
    found = stats.get(key)
    if not found:
        return 0
    if within is None:
        return found[1]
    cutoff = now - within
    return sum(1 for t in found[2] if t >= cutoff)


def holds(cond, stats) -> bool:
    if stats is None:
        raise CupcakeError("a policy needs session state, but it was not loaded (is the state_load system disabled?)")
    kind, key, count, within = cond
    exists = matching(stats, key, within, time.time()) >= count
    return exists if kind == "state_exists" else not exists
