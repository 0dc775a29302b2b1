"""``[telemetry]``: checked when policies are compiled, and merged across the policy files (cold path).
Where the decisions then go, with the standard ``OTEL_*`` variables, is ``cupcake.telemetry.config``.

    [telemetry]
    enabled = true
    endpoint = "http://collector.internal:4318"   # or OTEL_EXPORTER_OTLP_ENDPOINT
    headers = { "x-mlflow-experiment-id" = "0" }   # never credentials: those come from the environment

A run needs only ``enabled`` (on when the managed file says so or, when it does not say, when the
project or the user file does), the interval and the bound; every tier's table is kept as it was written
for the forwarder. A table with an error is out of service as a whole, and a header that looks like a
credential is an error: credentials come only from the environment.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from cupcake.project import TIERS

TABLE = "telemetry"
SIGNALS = ("traces", "logs")
HASHABLE = ("session", "user", "host")
SPOOL_BYTES = 16 << 20
DEFAULTS: dict = {
    "enabled": False,
    "interval_seconds": 30,
    "max_spool_bytes": SPOOL_BYTES,
    "timeout_seconds": 10,
    "compression": "none",
    "signals": ["traces"],
    "service_name": "cupcake",
}

# Header names that carry credentials, by name or by a fragment of it, and the schemes of a credential value.
CREDENTIAL_NAMES = frozenset(
    {"authorization", "proxy-authorization", "cookie", "x-honeycomb-team", "x-sf-token", "dd-api-key", "signature"}
)
CREDENTIAL_FRAGMENTS = ("auth", "token", "key", "secret", "passw", "cookie", "session", "credential", "signature")
CREDENTIAL_SCHEMES = ("bearer ", "basic ", "token ", "apikey ", "api-key ", "digest ", "negotiate ", "otlp ")


_SCHEMA = None


def url_problem(value: str) -> str | None:
    """Why ``value`` is not an OTLP/HTTP endpoint, or None."""
    try:
        parts = urlsplit(value)
    except ValueError as exc:
        return f"not a URL ({exc})"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an http:// or https:// URL with a host"
    if parts.username is not None or parts.password is not None:
        return "must not carry a user or password: credentials come from the environment (OTEL_EXPORTER_OTLP_HEADERS)"
    return None


def credential_problem(name: str, value: str) -> str | None:
    """Why a header looks like a credential (which never belongs in a policy file), or None."""
    lowered = name.strip().lower()
    if lowered in CREDENTIAL_NAMES or any(f in lowered for f in CREDENTIAL_FRAGMENTS):
        return f"`{name}` names a credential"
    text = value.strip().lower()
    if text.startswith(CREDENTIAL_SCHEMES):
        return f"the value of `{name}` is a credential ({value.split()[0]} …)"
    bare = value.strip()
    if (
        len(bare) >= 24
        and all(c.isalnum() or c in "+/=_-." for c in bare)
        and any(c.isdigit() for c in bare)
        and any(c.isalpha() for c in bare)
    ):
        return f"the value of `{name}` looks like a key or token"
    return None


def check(table, report) -> dict | None:
    """The checked ``[telemetry]`` of one file, or None when it has an error (``report(message, key)``
    says each): a broken table is out of service as a whole."""
    global _SCHEMA
    if not isinstance(table, dict):
        report("[telemetry] must be a table, such as [telemetry] with enabled = true", None)
        return None
    if _SCHEMA is None:
        from cupcake.compile.schema import TableSchema

        _SCHEMA = TableSchema(TABLE)  # the model: cupcake.compile.models.Telemetry
    from pydantic_core import ValidationError

    from cupcake.compile.compile_actions import pydantic_message

    bad = False
    try:
        _SCHEMA.validate(table)
    except ValidationError as exc:
        for err in exc.errors():
            key = str(err["loc"][0]) if err["loc"] else None
            located = dict(err, loc=(TABLE,) + tuple(err["loc"]))
            report(pydantic_message(located, _SCHEMA.keys), key)
        bad = True
    for key in ("endpoint", "traces_endpoint", "logs_endpoint"):
        value = table.get(key)
        if isinstance(value, str):
            why = url_problem(value)
            if why:
                report(f"`telemetry.{key}` {why}", key)
                bad = True
    headers = table.get("headers")
    if isinstance(headers, dict):
        for name, value in headers.items():
            if not isinstance(value, str):
                continue
            why = credential_problem(name, value)
            if why:
                report(
                    f"`telemetry.headers`: {why}. Credentials never go in a policy file (the agent can read it, "
                    "and a repository is shared): set them in OTEL_EXPORTER_OTLP_HEADERS where the forwarder runs",
                    "headers",
                )
                bad = True
            elif not name or any(c in name for c in " :\r\n") or any(c in value for c in "\r\n"):
                report(f"`telemetry.headers`: {name!r} is not a header name and value Cupcake can send", "headers")
                bad = True
    return None if bad else table


def merge(tables: dict) -> dict:
    """The compiled ``telemetry`` of a policy set from each tier's checked table (``{tier: table}``):
    what a run needs (``enabled``, ``interval``, ``max_spool_bytes``) and every tier's table for the
    forwarder, which resolves them against the variables."""

    def first(key):
        for tier in TIERS:
            table = tables.get(tier) or {}
            if key in table:
                return table[key]
        return DEFAULTS.get(key)

    managed = tables.get("managed") or {}
    if "enabled" in managed:
        enabled = managed["enabled"] is True
    else:
        enabled = any((tables.get(t) or {}).get("enabled") is True for t in TIERS)
    return {
        "enabled": enabled,
        "interval": float(first("interval_seconds")),
        "max_spool_bytes": int(first("max_spool_bytes")),
        "tiers": {tier: tables[tier] for tier in TIERS if tables.get(tier)},
    }
