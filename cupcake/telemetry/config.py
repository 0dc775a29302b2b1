"""``[telemetry]``: checked when policies are compiled, merged across the policy files, and resolved
against the standard ``OTEL_*`` variables where the forwarder runs (cold path).

    [telemetry]
    enabled = true
    endpoint = "http://collector.internal:4318"   # or OTEL_EXPORTER_OTLP_ENDPOINT
    headers = { "x-mlflow-experiment-id" = "0" }   # never credentials: those come from the environment

Which wins, key by key (highest first): the managed file, the ``OTEL_*`` variables, the project file,
the user file, the defaults. ``enabled`` is on when the managed file says so, or, when it does not say,
when the project or the user file does. Why the variables rank above the project and user files: they
belong to whoever runs the forwarder (the person, cron, the CI job), while a project file comes with
whatever repository was cloned; and the credentials come only from the variables, so the endpoint they
are sent to must not be one a repository chose. That is also the one rule the order alone does not give:
the headers of ``OTEL_EXPORTER_OTLP_HEADERS`` go only to an endpoint named by the variables or by the
managed file; to an endpoint a project or user file names they are withheld, and `doctor` says so.
"""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit

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
TIERS = ("managed", "project", "user")  # the order files rank in (the variables come after managed)

# Header names that carry credentials, by name or by a fragment of it, and the schemes of a credential value.
CREDENTIAL_NAMES = frozenset(
    {"authorization", "proxy-authorization", "cookie", "x-honeycomb-team", "x-sf-token", "dd-api-key", "signature"}
)
CREDENTIAL_FRAGMENTS = ("auth", "token", "key", "secret", "passw", "cookie", "session", "credential", "signature")
CREDENTIAL_SCHEMES = ("bearer ", "basic ", "token ", "apikey ", "api-key ", "digest ", "negotiate ", "otlp ")


def _schema():
    from pydantic_core import core_schema as cs

    from cupcake.compile.schema import TableSchema

    strings = cs.str_schema(strict=True)
    scalar = cs.union_schema(
        [strings, cs.bool_schema(strict=True), cs.int_schema(strict=True), cs.float_schema(strict=True)]
    )
    return TableSchema(
        TABLE,
        {
            "enabled": cs.bool_schema(strict=True),
            "endpoint": strings,
            "traces_endpoint": strings,
            "logs_endpoint": strings,
            "signals": cs.list_schema(cs.literal_schema(list(SIGNALS)), min_length=1),
            "service_name": cs.str_schema(strict=True, min_length=1),
            "headers": cs.dict_schema(strings, strings),
            "resource": cs.dict_schema(strings, scalar),
            "hash": cs.list_schema(cs.literal_schema(list(HASHABLE))),
            "interval_seconds": cs.union_schema([cs.int_schema(strict=True, ge=1), cs.float_schema(strict=True, ge=1)]),
            "max_spool_bytes": cs.int_schema(strict=True, ge=65536),
            "timeout_seconds": cs.union_schema(
                [cs.int_schema(strict=True, gt=0, le=300), cs.float_schema(strict=True, gt=0, le=300)]
            ),
            "compression": cs.literal_schema(["gzip", "none"]),
        },
    )


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
        _SCHEMA = _schema()
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


# ## Where the forwarder sends: the tiers and the variables ###############################################


class Target:
    """Where one signal goes: ``url`` (None when nothing names one), ``headers``, where the URL came from,
    and the variables' headers withheld from it (when a project or user file named it)."""

    __slots__ = ("signal", "url", "origin", "headers", "withheld")

    def __init__(self, signal: str, url, origin: str, headers: dict, withheld: list):
        self.signal = signal
        self.url = url
        self.origin = origin
        self.headers = headers
        self.withheld = withheld


class Resolved:
    """The telemetry settings where the forwarder runs."""

    __slots__ = ("enabled", "targets", "problems", "service_name", "resource", "timeout", "compression", "hash")

    def __init__(self):
        self.enabled = False
        self.targets: dict = {}
        self.problems: list = []
        self.service_name = DEFAULTS["service_name"]
        self.resource: dict = {}
        self.timeout = float(DEFAULTS["timeout_seconds"])
        self.compression = DEFAULTS["compression"]
        self.hash: frozenset = frozenset()


def parse_pairs(text: str) -> dict:
    """``k1=v1,k2=v2`` as the OTEL variables write headers and resource attributes (values percent-encoded)."""
    out = {}
    for item in (text or "").split(","):
        if "=" not in item:
            continue
        key, _, value = item.partition("=")
        key = unquote(key.strip())
        if key:
            out[key] = unquote(value.strip())
    return out


def _signal_url(base: str, signal: str) -> str:
    return base + ("" if base.endswith("/") else "/") + f"v1/{signal}"


def _truthy(value) -> bool:
    return isinstance(value, str) and value.strip().lower() == "true"


def resolve(compiled, env) -> Resolved:
    """Which signals go where, with what, for the compiled ``telemetry`` of a policy set and ``env``."""
    out = Resolved()
    compiled = compiled or {}
    tiers = compiled.get("tiers") or {}
    out.enabled = compiled.get("enabled") is True
    managed, files = tiers.get("managed") or {}, [tiers.get(t) or {} for t in ("project", "user")]

    def pick(key, variable=None, convert=None):
        """(value, origin) by the order: managed, the variable, project, user, default."""
        if key in managed:
            return managed[key], "the managed file"
        if variable and env.get(variable):
            value = env[variable]
            return (convert(value) if convert else value), variable
        for tier, table in zip(("project", "user"), files, strict=True):
            if key in table:
                return table[key], f"the {tier} file"
        return DEFAULTS.get(key), "default"

    if _truthy(env.get("OTEL_SDK_DISABLED")):
        out.problems.append("OTEL_SDK_DISABLED is true where the forwarder runs, so nothing is sent")
    file_headers: dict = {}
    for table in reversed([managed, *files]):  # managed last: it wins
        file_headers.update(table.get("headers") or {})
    signals_from_files = None
    for table in (managed, *files):
        if "signals" in table:
            signals_from_files = (table is managed, table["signals"])
            break
    for signal in SIGNALS:
        upper = signal.upper()
        exporter = (env.get(f"OTEL_{upper}_EXPORTER") or "").strip().lower()
        if signals_from_files and signals_from_files[0]:
            wanted = signal in signals_from_files[1]
        elif exporter:
            wanted = exporter != "none" and "otlp" in exporter.split(",")
        elif signals_from_files:
            wanted = signal in signals_from_files[1]
        else:
            wanted = signal == "traces"
        if not wanted:
            continue
        url, origin = _endpoint(signal, managed, files, env)
        from_env = origin.startswith("OTEL_")
        env_headers = parse_pairs(env.get("OTEL_EXPORTER_OTLP_HEADERS", ""))
        env_headers.update(parse_pairs(env.get(f"OTEL_EXPORTER_OTLP_{upper}_HEADERS", "")))
        headers = dict(file_headers)
        withheld = []
        if from_env or origin == "the managed file":
            headers.update(env_headers)
        else:
            withheld = sorted(env_headers)
        if from_env:
            protocol = env.get(f"OTEL_EXPORTER_OTLP_{upper}_PROTOCOL") or env.get("OTEL_EXPORTER_OTLP_PROTOCOL")
            if protocol and protocol.strip() != "http/json":
                out.problems.append(
                    f"the variables ask for OTLP over {protocol.strip()}; Cupcake sends OTLP/HTTP as JSON "
                    f"(set OTEL_EXPORTER_OTLP_{upper}_PROTOCOL=http/json, or name the endpoint in [telemetry])"
                )
        if url is not None:
            why = url_problem(url)
            if why:
                out.problems.append(f"the {signal} endpoint {url!r} from {origin} {why}")
                url = None
        out.targets[signal] = Target(signal, url, origin, headers, withheld)
    out.service_name, _ = pick("service_name", "OTEL_SERVICE_NAME")
    resource: dict = {}
    for table in reversed(files):
        resource.update(table.get("resource") or {})
    resource.update(parse_pairs(env.get("OTEL_RESOURCE_ATTRIBUTES", "")))
    resource.update(managed.get("resource") or {})
    if "service_name" not in managed and not env.get("OTEL_SERVICE_NAME") and "service.name" in resource:
        out.service_name = str(resource["service.name"])
    resource.pop("service.name", None)
    out.resource = resource
    timeout, _ = pick("timeout_seconds", "OTEL_EXPORTER_OTLP_TIMEOUT", _millis)
    out.timeout = float(timeout) if isinstance(timeout, (int, float)) and timeout > 0 else DEFAULTS["timeout_seconds"]
    compression, _ = pick("compression", "OTEL_EXPORTER_OTLP_COMPRESSION", lambda v: v.strip().lower())
    out.compression = "gzip" if compression == "gzip" else "none"
    hashed, _ = pick("hash")
    out.hash = frozenset(hashed or ())
    return out


def _millis(value: str):
    try:
        return float(value) / 1000
    except ValueError:
        return None


def _endpoint(signal: str, managed: dict, files: list, env) -> tuple:
    """(URL or None, where it came from) for one signal."""
    upper = signal.upper()

    def from_table(table):
        if table.get(f"{signal}_endpoint"):
            return table[f"{signal}_endpoint"]
        if table.get("endpoint"):
            return _signal_url(table["endpoint"], signal)
        return None

    found = from_table(managed)
    if found:
        return found, "the managed file"
    variable = f"OTEL_EXPORTER_OTLP_{upper}_ENDPOINT"
    if env.get(variable, "").strip():
        return env[variable].strip(), variable
    if env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip():
        return _signal_url(env["OTEL_EXPORTER_OTLP_ENDPOINT"].strip(), signal), "OTEL_EXPORTER_OTLP_ENDPOINT"
    for tier, table in zip(("project", "user"), files, strict=True):
        found = from_table(table)
        if found:
            return found, f"the {tier} file"
    return None, "nothing"


def host_name() -> str:
    return os.uname().nodename
