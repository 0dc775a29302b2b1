"""Custom stages: systems that crash or hang, integrators' systems, the order table, `cupcake systems`."""

from __future__ import annotations

import json
import sys
import time

from pytest_bdd import given, parsers, then

from tests.conftest import REPO, forget_modules, install_on_path


def _replace_process(monkeypatch, cls_path: str, behaviour):
    module_name, cls_name = cls_path.rsplit(".", 1)
    module = __import__(module_name, fromlist=[cls_name])
    monkeypatch.setattr(getattr(module, cls_name), "process", behaviour)


@given(parsers.parse('the feedback collection system crashes with "{message}"'))
def crashing_system(monkeypatch, message):
    """The built-in feedback collection system raises an error with the message, for this test."""

    def boom(self, ctx):
        raise RuntimeError(message)

    _replace_process(monkeypatch, "cupcake.systems.feedback_collection.FeedbackCollection", boom)


@given("the feedback collection system hangs")
def hanging_system(monkeypatch):
    """The built-in feedback collection system never returns (sleeps a minute), for this test."""

    def hang(self, ctx):
        time.sleep(60)

    _replace_process(monkeypatch, "cupcake.systems.feedback_collection.FeedbackCollection", hang)


@given(parsers.parse('the response routing system is preceded by a system that crashes with "{message}"'))
def late_crash(monkeypatch, message):
    """A system that raises, ordered just before response routing, is added to the built-in ones."""
    import cupcake.systems as systems
    from cupcake.pipeline.system import BaseSystem

    class LateTrouble(BaseSystem):
        name = "late_trouble"
        order = 750

        def process(self, ctx):
            raise RuntimeError(message)

    original = systems.builtin_systems
    monkeypatch.setattr(systems, "builtin_systems", lambda: original() + [LateTrouble()])


@given(parsers.parse('the integrator package "{name}" is installed'))
def integrator_package_installed(request, name):
    """Its .dist-info (entry points included) and its sources are on the path, for this test only."""
    assert name == "acme-cupcake", f"no example integrator package {name!r}"
    request.getfixturevalue("acme_installed")


@given(parsers.parse('the integrator module "{filename}":'))
def integrator_module(request, monkeypatch, project, filename, docstring):
    """A module of the integrator's (or the project's own), importable by its import path."""
    modules = project.home.parent / "modules"
    modules.mkdir(exist_ok=True)
    (modules / filename).write_text(docstring + "\n")
    name = filename.removesuffix(".py")
    install_on_path(monkeypatch, project, modules)
    forget_modules(name)
    request.addfinalizer(lambda: forget_modules(name))


def _markdown_table(text: str, first_header: str) -> list:
    """The rows of the markdown table whose first header cell is ``first_header``."""
    rows, inside = [], False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells and cells[0] == first_header:
            inside = True
            rows.append(cells)
        elif inside and cells:
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif inside:
            break
    return rows


@then("the built-in systems, in cupcake/pipeline/order.py and in docs/custom-stages.md, are:")
def builtin_order_table(datatable):
    """The order table in cupcake/pipeline/order.py and the one in docs/custom-stages.md are both this table."""
    from cupcake.pipeline.order import BUILTIN_ORDER, CORE

    header, rows = datatable[0], datatable[1:]
    assert header == ["order", "system", "core", "what it does"]
    assert [(int(r[0]), r[1]) for r in rows] == list(BUILTIN_ORDER)
    assert [r[2] == "yes" for r in rows] == [order in CORE for order, _ in BUILTIN_ORDER]
    assert _markdown_table((REPO / "docs" / "custom-stages.md").read_text(), "order") == datatable


@then(parsers.parse('no module of "{prefix}" was loaded'))
def module_not_loaded(prefix):
    """No module of the package was imported in this process."""
    assert not [n for n in sys.modules if n == prefix or n.startswith(prefix + ".")]


@then(parsers.parse('"{path}" holds the decisions:'))
def holds_decisions(project, path, datatable):
    """The JSON-lines file holds one record per row, with these fields."""
    records = [json.loads(line) for line in (project.root / path).read_text().splitlines()]
    header = datatable[0]
    shown = [[str(r.get(k) or "") for k in header] for r in records]
    assert shown == datatable[1:], shown


@then("the JSON lists the custom systems:")
def json_custom_systems(run, datatable):
    """`cupcake systems --json` lists exactly these systems besides the built-in ones."""
    report = json.loads(run.answer.stdout)
    header = datatable[0]
    custom = [row for row in report["systems"] if row["from"] != "built-in"]

    def cell(value):
        return (
            {True: "yes", False: "no", None: ""}.get(value, value)
            if not isinstance(value, int) or isinstance(value, bool)
            else str(value)
        )

    assert [[cell(row[k]) for k in header] for row in custom] == datatable[1:], custom


@then(parsers.parse('the JSON reports the problem "{text}"'))
def json_problem(run, text):
    """The JSON output lists a problem whose message contains the text."""
    text = text.replace('\\"', '"')
    problems = [p["message"] for p in json.loads(run.answer.stdout)["problems"]]
    assert any(text in p for p in problems), problems
