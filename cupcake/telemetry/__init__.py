"""Decisions to any OpenTelemetry backend, off the hot path.

``cupcake run`` only appends one line per hook call to a local spool and, at most once per interval,
starts a detached forwarder: all of that is ``cupcake.stores.spool``, the one module a run loads for
telemetry. The forwarder
(``cupcake export``, ``forward``) claims what the runs appended, sends it as OTLP/HTTP JSON spans (and
log records) and moves its cursor on only once the receiver has accepted a batch (``batches``), so a
receiver that is down loses nothing and one that comes back gets nothing twice; the spool is bounded,
and what falls off is counted. Where the decisions go is resolved in ``config``; the OTLP payloads are
built in ``otlp``. No run imports this package.
"""
