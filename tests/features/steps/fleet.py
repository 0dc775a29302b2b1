"""Steps of features/fleet.feature: the organisation's policy file, and its OpenTelemetry collector."""

from __future__ import annotations

import pytest
from pytest_bdd import given, parsers, then, when

from tests.telemetry.standin import OtlpStandIn, attributes


@pytest.fixture
def collector():
    standin = OtlpStandIn()
    yield standin
    standin.stop()


@given("the organisation's collector is listening")
def collector_listening(collector):
    """An OpenTelemetry collector on this machine takes OTLP/HTTP ($COLLECTOR in a policy is its address)."""
    collector.start()


@given("the organisation's collector is down")
def collector_down(collector):
    """The collector stops answering (its address stays the same)."""
    collector.stop()


@when("the organisation's collector comes back")
def collector_back(collector):
    """The collector listens again, at the same address."""
    collector.start()


@given(parsers.parse("the organisation's policy:"))
def organisation_policy(project, collector, docstring):
    """The managed policy file (/etc/cupcake/cupcake.toml on Linux), under the tests' stand-in system root."""
    project.write_managed_policy(docstring.replace("$COLLECTOR", f"http://127.0.0.1:{collector.port}"))


@then(parsers.re(r"the collector has (?P<count>\d+) decisions?, each once"))
def collector_has(collector, count):
    """The spans the collector accepted: that many, and no span twice."""
    spans = collector.spans()
    assert len(spans) == int(count), spans
    assert len({(s["traceId"], s["spanId"]) for s in spans}) == len(spans)


@then(parsers.parse('the collector\'s span for "{command}" says:'))
def span_says(collector, command, datatable):
    """The span of the decision about that command carries these attributes."""
    found = [attributes(s) for s in collector.spans()]
    span = next(a for a in found if a.get("cupcake.tool.input.command") == command)
    header, *rows = datatable
    assert header == ["attribute", "value"]
    for key, value in rows:
        assert span.get(key) == value, (key, span)
