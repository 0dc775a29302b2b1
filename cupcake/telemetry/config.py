"""Where the forwarder sends the decisions: the compiled ``[telemetry]`` of every tier
(``cupcake.compile.telemetry``) resolved against the standard ``OTEL_*`` variables where it runs (cold path).

Which wins, key by key (highest first): the managed file, the ``OTEL_*`` variables, the project file,
the user file, the defaults. Why the variables rank above the project and user files: they belong to
whoever runs the forwarder (the person, cron, the CI job), while a project file comes with whatever
repository was cloned; and the credentials come only from the variables, so the endpoint they are sent to
must not be one a repository chose. That is also the one rule the order alone does not give: the headers
of ``OTEL_EXPORTER_OTLP_HEADERS`` go only to an endpoint named by the variables or by the managed file; to
an endpoint a project or user file names they are withheld, and `doctor` says so.
"""

from __future__ import annotations

from urllib.parse import unquote

from cupcake.compile.telemetry import DEFAULTS, SIGNALS, SPOOL_BYTES, url_problem

__all__ = ["DEFAULTS", "SIGNALS", "SPOOL_BYTES", "Resolved", "Target", "parse_pairs", "resolve", "url_problem"]


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
