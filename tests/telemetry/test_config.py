"""[telemetry]: what a policy file may say (never a credential), and where the decisions go once the
files and the OTEL_* variables are taken together (managed file, then the variables, then project, user)."""

from __future__ import annotations

import pytest

from cupcake.compile import telemetry as table_check
from cupcake.telemetry import config


def checked(table: dict):
    problems: list = []
    result = table_check.check(table, lambda message, key: problems.append((key, message)))
    return result, problems


@pytest.mark.parametrize(
    "headers, why",
    [
        ({"Authorization": "Bearer abc"}, "`Authorization` names a credential"),
        ({"x-api-key": "123"}, "`x-api-key` names a credential"),
        ({"x-honeycomb-team": "team"}, "`x-honeycomb-team` names a credential"),
        ({"DD-API-KEY": "x"}, "`DD-API-KEY` names a credential"),
        ({"x-scope": "Bearer eyJhbGciOi"}, "the value of `x-scope` is a credential (Bearer …)"),
        ({"x-tenant": "Basic dXNlcjpwYXNz"}, "the value of `x-tenant` is a credential (Basic …)"),
        ({"x-tenant": "a1b2c3d4e5f6a7b8c9d0e1f2a3b4"}, "the value of `x-tenant` looks like a key or token"),
        ({"cookie": "s=1"}, "`cookie` names a credential"),
    ],
)
def test_a_credential_in_the_policy_file_is_refused(headers, why):
    result, problems = checked({"enabled": True, "headers": headers})
    assert result is None
    assert [k for k, _ in problems] == ["headers"]
    assert why in problems[0][1]
    assert "OTEL_EXPORTER_OTLP_HEADERS" in problems[0][1]


def test_a_header_that_is_no_credential_is_kept():
    table = {"enabled": True, "endpoint": "http://127.0.0.1:5000", "headers": {"x-mlflow-experiment-id": "0"}}
    assert checked(table) == (table, [])


@pytest.mark.parametrize(
    "key, value, fragment",
    [
        ("endpoint", "ftp://x", "must be an http:// or https:// URL with a host"),
        ("endpoint", "collector:4318", "must be an http:// or https:// URL with a host"),
        ("traces_endpoint", "https://user:secret@otel.example/v1/traces", "must not carry a user or password"),
        ("signals", ["metrics"], "telemetry.signals"),
        ("hash", ["email"], "telemetry.hash"),
        ("interval_seconds", 0, "telemetry.interval_seconds"),
        ("max_spool_bytes", 100, "telemetry.max_spool_bytes"),
        ("enabled", "yes", "telemetry.enabled"),
        ("endpiont", "http://x", "endpoint"),
    ],
)
def test_what_is_wrong_in_telemetry_is_named(key, value, fragment):
    result, problems = checked({"enabled": True, key: value})
    assert result is None
    assert any(fragment in message for _k, message in problems), problems


def merged(**tiers) -> dict:
    return table_check.merge(tiers)


def test_enabled_in_any_file_turns_it_on_unless_the_managed_file_says_otherwise():
    assert merged(user={"enabled": True})["enabled"] is True
    assert merged(project={"enabled": True}, user={"enabled": False})["enabled"] is True
    assert merged(managed={"enabled": False}, project={"enabled": True})["enabled"] is False
    assert merged(managed={"enabled": True}, project={"enabled": False})["enabled"] is True
    assert merged()["enabled"] is False


def test_the_run_gets_the_interval_and_the_bound_by_the_files_order():
    out = merged(managed={"interval_seconds": 5}, project={"interval_seconds": 9, "max_spool_bytes": 70000})
    assert (out["interval"], out["max_spool_bytes"]) == (5.0, 70000)
    assert merged()["interval"] == 30.0 and merged()["max_spool_bytes"] == 16 << 20


def resolved(env=None, **tiers):
    return config.resolve(table_check.merge(tiers), env or {})


# (where the endpoint is named: managed, env, project, user) -> the URL and where it came from
@pytest.mark.parametrize(
    "managed, env, project, user, url, origin",
    [
        (None, None, None, "http://u:4318", "http://u:4318/v1/traces", "the user file"),
        (None, None, "http://p:4318/", "http://u:4318", "http://p:4318/v1/traces", "the project file"),
        (
            None,
            "http://e:4318",
            "http://p:4318",
            "http://u:4318",
            "http://e:4318/v1/traces",
            "OTEL_EXPORTER_OTLP_ENDPOINT",
        ),
        ("http://m:4318", "http://e:4318", "http://p:4318", None, "http://m:4318/v1/traces", "the managed file"),
        (None, None, None, None, None, "nothing"),
    ],
)
def test_where_the_spans_go_managed_then_the_variables_then_project_then_user(managed, env, project, user, url, origin):
    tiers = {
        name: {"endpoint": value}
        for name, value in (("managed", managed), ("project", project), ("user", user))
        if value
    }
    out = resolved({"OTEL_EXPORTER_OTLP_ENDPOINT": env} if env else {}, **tiers)
    target = out.targets["traces"]
    assert (target.url, target.origin) == (url, origin)


def test_a_signal_endpoint_is_used_as_is():
    env = {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://e:5000/v1/traces", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://x"}
    assert resolved(env).targets["traces"].url == "http://e:5000/v1/traces"
    assert resolved(project={"traces_endpoint": "http://p/custom"}).targets["traces"].url == "http://p/custom"


def test_the_variables_alone_are_enough():
    env = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": "https://otel.example",
        "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20s3cr3t,x-team=platform",
        "OTEL_SERVICE_NAME": "cupcake-laptops",
        "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=dev,team=payments",
        "OTEL_EXPORTER_OTLP_TIMEOUT": "2500",
        "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip",
        "OTEL_LOGS_EXPORTER": "otlp",
    }
    out = config.resolve({"enabled": True, "tiers": {}}, env)
    assert {s: t.url for s, t in out.targets.items()} == {
        "traces": "https://otel.example/v1/traces",
        "logs": "https://otel.example/v1/logs",
    }
    assert out.targets["traces"].headers == {"authorization": "Bearer s3cr3t", "x-team": "platform"}
    assert out.service_name == "cupcake-laptops"
    assert out.resource == {"deployment.environment": "dev", "team": "payments"}
    assert (out.timeout, out.compression, out.problems) == (2.5, "gzip", [])


def test_the_variables_credentials_never_go_to_an_endpoint_a_project_file_names():
    env = {"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer s3cr3t"}
    project = {"endpoint": "https://collector.evil.example", "headers": {"x-mlflow-experiment-id": "0"}}
    target = resolved(env, project=project).targets["traces"]
    assert target.headers == {"x-mlflow-experiment-id": "0"}
    assert target.withheld == ["authorization"]
    managed = resolved(env, managed={"endpoint": "https://otel.corp.example"}, project=project).targets["traces"]
    assert managed.headers["authorization"] == "Bearer s3cr3t" and managed.withheld == []


def test_another_protocol_in_the_variables_is_said_not_guessed():
    out = resolved({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://e:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"})
    assert any("grpc" in p and "http/json" in p for p in out.problems)
    assert (
        resolved({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://e", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"}).problems == []
    )


def test_which_signals_the_variables_and_the_files_ask_for():
    assert list(resolved().targets) == ["traces"]
    assert list(resolved({"OTEL_TRACES_EXPORTER": "none", "OTEL_LOGS_EXPORTER": "otlp"}).targets) == ["logs"]
    assert list(resolved(project={"signals": ["traces", "logs"]}).targets) == ["traces", "logs"]
    managed = resolved({"OTEL_LOGS_EXPORTER": "otlp"}, managed={"signals": ["traces"]})
    assert list(managed.targets) == ["traces"]  # the managed file wins over the variables


def test_otel_sdk_disabled_stops_sending():
    assert any("OTEL_SDK_DISABLED" in p for p in resolved({"OTEL_SDK_DISABLED": "true"}).problems)


def test_the_service_name_managed_then_variable_then_resource_attribute_then_files():
    assert resolved(project={"service_name": "p"}).service_name == "p"
    assert resolved({"OTEL_RESOURCE_ATTRIBUTES": "service.name=r"}, project={"service_name": "p"}).service_name == "r"
    assert resolved({"OTEL_SERVICE_NAME": "e"}, project={"service_name": "p"}).service_name == "e"
    assert resolved({"OTEL_SERVICE_NAME": "e"}, managed={"service_name": "m"}).service_name == "m"
    assert resolved().service_name == "cupcake"


def test_pairs_are_percent_decoded():
    assert config.parse_pairs("a=1, b = x%2Cy ,broken,=v") == {"a": "1", "b": "x,y"}
