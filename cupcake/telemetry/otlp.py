"""Spool records as OTLP/JSON: one span per hook call (and one log record, for a logs pipeline), with the
attributes a platform team filters and groups by (cold path).

Names follow OpenTelemetry's semantic conventions where one fits: the GenAI ones for what the agent was
doing (``gen_ai.agent.name``, ``gen_ai.tool.name``, ``gen_ai.tool.call.id``, ``gen_ai.conversation.id``
for the session, ``gen_ai.request.model``), ``host.name``, ``user.name``, ``service.*``; the decision
itself has no convention, so it is ``cupcake.*``. The span is not a GenAI ``execute_tool`` span (Cupcake
does not run the tool, it decides about it), so ``gen_ai.operation.name`` is not set. The resource's
service and host are repeated on every span and log record, because some stores keep only those.

Every text that came from the agent, a policy or a command is masked (``cupcake.stores.audit.mask``)
before it leaves the machine; identifiers the team asked for (``[telemetry] hash``) are hashed.
"""

from __future__ import annotations

import hashlib
import os
import time

from cupcake import __version__
from cupcake.stores.audit.mask import mask_cut

SCOPE = "cupcake"
SPAN_NAME = "cupcake {event}"
KIND_INTERNAL = 1
STATUS_ERROR = 2
TEXT_CHARS = 2000
INPUT_CHARS = 500
# Log severities (OTLP SeverityNumber): INFO for what let the call go on, WARN for a block, ERROR for a failure.
SEVERITY = {"block": (13, "WARN"), "ask": (9, "INFO"), "error": (17, "ERROR")}
INFO = (9, "INFO")
# What stands for the tool call: its input's keys, as the audit trail keeps them.
INPUT_KEYS = ("command", "file_path", "notebook_path", "path", "pattern", "url", "query", "subagent_type", "prompt")


def any_value(value) -> dict:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, (list, tuple)):
        return {"arrayValue": {"values": [any_value(v) for v in value]}}
    return {"stringValue": str(value)}


def key_values(attributes: dict) -> list:
    return [{"key": k, "value": any_value(v)} for k, v in attributes.items() if v is not None and v != []]


def hashed(value):
    """A stable pseudonym: the first 32 hex digits of the SHA-256 of the value."""
    if not isinstance(value, str):
        return value
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class Shaper:
    """Turns records into OTLP for one forwarder run: the resource, the hashing and masking it asked for."""

    def __init__(self, resolved, host: str | None = None, user: str | None = None):
        self.resolved = resolved
        self.hash = resolved.hash
        self.host = host if host is not None else os.uname().nodename
        self.user = user
        base = {
            "service.name": resolved.service_name,
            "service.version": __version__,
            "host.name": self._maybe("host", self.host),
        }
        self.resource_attributes = {**resolved.resource, **base}
        self.same_on_spans = base

    def _maybe(self, what: str, value):
        return hashed(value) if what in self.hash else value

    def resource(self) -> dict:
        return {"attributes": key_values(self.resource_attributes)}

    def attributes(self, record: dict) -> dict:
        root = record.get("root") if isinstance(record.get("root"), str) else None
        user = record.get("user") or self.user or _user_of(record.get("uid"))
        out = {
            **self.same_on_spans,
            "cupcake.version": record.get("cupcake"),
            "cupcake.event": record.get("event"),
            "cupcake.decision": record.get("decision"),
            "cupcake.decided_by": record.get("by"),
            "cupcake.reason": mask_cut(record.get("reason") or None, TEXT_CHARS),
            "cupcake.rules": [f[0] for f in _fired(record) if isinstance(f[0], str)],
            "cupcake.failures": [
                mask_cut(f"{f[0]}: {f[1]}", TEXT_CHARS) for f in record.get("failures") or () if _pair(f)
            ],
            "cupcake.warnings": record.get("warnings") or None,
            "cupcake.project": os.path.basename(root) if root else None,
            "cupcake.project.dir": root,
            "gen_ai.agent.name": record.get("agent"),
            "cupcake.agent.version": record.get("version"),
            "gen_ai.request.model": record.get("model"),
            "gen_ai.tool.name": record.get("tool"),
            "cupcake.agent.tool": record.get("agent_tool") if record.get("agent_tool") != record.get("tool") else None,
            "gen_ai.tool.call.id": record.get("call"),
            "gen_ai.conversation.id": self._maybe("session", record.get("session")),
            "user.name": self._maybe("user", user),
        }
        given = record.get("input")
        tool_input = given if isinstance(given, dict) else {}
        for key in INPUT_KEYS:
            value = tool_input.get(key)
            if isinstance(value, str):
                out[f"cupcake.tool.input.{key}"] = mask_cut(value, INPUT_CHARS)
        return out

    def ids(self, record: dict) -> tuple:
        """(trace id, span id, parent span id or None): the record's own, under the agent's trace when
        the hook was given one (``TRACEPARENT``)."""
        trace, span, parent = record.get("trace"), record.get("span"), None
        if not (isinstance(trace, str) and len(trace) == 32 and _hex(trace)):
            trace = hashed(repr(sorted(record.items(), key=str)))
        if not (isinstance(span, str) and len(span) == 16 and _hex(span)):
            span = hashed(trace + "span")[:16]
        given = record.get("parent")
        if isinstance(given, str):
            parts = given.strip().split("-")
            if len(parts) == 4 and len(parts[1]) == 32 and len(parts[2]) == 16 and _hex(parts[1] + parts[2]):
                if parts[1] != "0" * 32 and parts[2] != "0" * 16:
                    trace, parent = parts[1].lower(), parts[2].lower()
        return trace, span, parent

    def span(self, record: dict) -> dict:
        trace, span, parent = self.ids(record)
        end = _nanos(record.get("end"))
        out = {
            "traceId": trace,
            "spanId": span,
            "name": SPAN_NAME.format(event=record.get("event") or "unknown"),
            "kind": KIND_INTERNAL,
            "startTimeUnixNano": str(_nanos(record.get("start")) or end),
            "endTimeUnixNano": str(end),
            "attributes": key_values(self.attributes(record)),
            "events": [
                {
                    "timeUnixNano": str(end),
                    "name": "cupcake.rule",
                    "attributes": key_values(
                        {
                            "cupcake.rule.name": f[0],
                            "cupcake.rule.action": f[1],
                            "cupcake.rule.reason": mask_cut(f[2], TEXT_CHARS) if isinstance(f[2], str) else None,
                            "cupcake.rule.source": _source(f),
                        }
                    ),
                }
                for f in _fired(record)
            ],
        }
        if parent:
            out["parentSpanId"] = parent
        if record.get("decision") == "error":
            out["status"] = {"code": STATUS_ERROR, "message": mask_cut(record.get("reason") or "", TEXT_CHARS)}
        return out

    def log_record(self, record: dict) -> dict:
        trace, span, _parent = self.ids(record)
        decision = record.get("decision") or "unknown"
        number, text = SEVERITY.get(decision, INFO)
        what = record.get("tool") or record.get("event") or "event"
        body = f"{decision} {what}"
        if record.get("by"):
            body += f" by {record['by']}"
        if record.get("reason"):
            body += ": " + record["reason"]
        return {
            "timeUnixNano": str(_nanos(record.get("end"))),
            "observedTimeUnixNano": str(time.time_ns()),
            "severityNumber": number,
            "severityText": text,
            "body": {"stringValue": mask_cut(body, TEXT_CHARS)},
            "attributes": key_values({"event.name": "cupcake.decision", **self.attributes(record)}),
            "traceId": trace,
            "spanId": span,
        }

    def dropped_span(self, count: int) -> dict:
        """A span that says how many decisions the spool dropped unsent (the receiver was away too long)."""
        ids = os.urandom(24).hex()
        now = time.time_ns()
        return {
            "traceId": ids[:32],
            "spanId": ids[32:],
            "name": "cupcake dropped",
            "kind": KIND_INTERNAL,
            "startTimeUnixNano": str(now),
            "endTimeUnixNano": str(now),
            "attributes": key_values({**self.same_on_spans, "cupcake.dropped": count}),
        }

    def traces(self, spans: list) -> dict:
        return {
            "resourceSpans": [
                {
                    "resource": self.resource(),
                    "scopeSpans": [{"scope": {"name": SCOPE, "version": __version__}, "spans": spans}],
                }
            ]
        }

    def logs(self, log_records: list) -> dict:
        return {
            "resourceLogs": [
                {
                    "resource": self.resource(),
                    "scopeLogs": [{"scope": {"name": SCOPE, "version": __version__}, "logRecords": log_records}],
                }
            ]
        }

    def payload(self, signal: str, records: list, dropped: int = 0) -> dict:
        if signal == "logs":
            return self.logs([self.log_record(r) for r in records])
        spans = [self.span(r) for r in records]
        if dropped:
            spans.append(self.dropped_span(dropped))
        return self.traces(spans)


def _fired(record: dict) -> list:
    fired = record.get("fired")
    return [f for f in fired if isinstance(f, list) and len(f) == 5] if isinstance(fired, list) else []


def _pair(item) -> bool:
    return isinstance(item, list) and len(item) == 2


def _source(fired) -> str | None:
    file, line = fired[3], fired[4]
    if not isinstance(file, str):
        return None
    return f"{file}:{line}" if isinstance(line, int) else file


def _user_of(uid):
    """The login name of a numeric user id (a hook's environment may carry no USER)."""
    if not isinstance(uid, int) or isinstance(uid, bool):
        return None
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (KeyError, ImportError):
        return str(uid)


def _nanos(value) -> int:
    return value if isinstance(value, int) and value > 0 else time.time_ns()


def _hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)
