"""1100 · The decision spooled for an OpenTelemetry backend, in a fake context: only when the policies
turn telemetry on, one line per run, and the forwarder asked to start (never started from here)."""

from __future__ import annotations

import json

from cupcake.pipeline.response import NONE, Response
from cupcake.systems.telemetry_spool import TelemetrySpool, telemetry_of

ON = {"enabled": True, "max_spool_bytes": 1 << 20, "interval": 60.0}


def test_it_runs_only_when_telemetry_is_on(fakes):
    ctx = fakes.context("", tool_input={"command": "ls"})
    assert telemetry_of(ctx) is None and not TelemetrySpool().should_process(ctx)
    ctx.policies["telemetry"] = dict(ON, enabled=False)
    assert not TelemetrySpool().should_process(ctx)
    ctx.policies["telemetry"] = ON
    assert TelemetrySpool().should_process(ctx)
    assert not TelemetrySpool().should_process(fakes.context(None))


def test_one_line_is_spooled_and_the_forwarder_is_asked_for(fakes, monkeypatch):
    from cupcake.stores import spool

    asked = []
    monkeypatch.setattr(spool, "maybe_start", lambda *args: asked.append(args))
    ctx = fakes.context("", tool_input={"command": "ls"})
    ctx.policies["telemetry"] = ON
    ctx.response = Response(NONE)
    TelemetrySpool().process(ctx)
    [line] = (fakes.root / ".cupcake" / spool.DIR / spool.SPOOL).read_text().splitlines()
    assert isinstance(json.loads(line), dict)
    assert [(a[1], a[2]) for a in asked] == [(str(fakes.root), 60.0)]
