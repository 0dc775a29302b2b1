"""The generic pipeline runs with fake systems only: order, containment, timing, the finally."""

from __future__ import annotations

import pytest

from cupcake.pipeline.context import Context
from cupcake.pipeline.order import BUILTIN_ORDER, CORE, ON_DEMAND, Stage
from cupcake.pipeline.plan import PlanError, build_plan
from cupcake.pipeline.runner import run_plan
from cupcake.pipeline.system import BaseSystem


def make_system(name, order, effect=None, guard=True, decides=True):
    cls = type(name, (BaseSystem,), {"name": name, "order": order, "decides": decides})
    cls.should_process = lambda self, ctx: guard
    cls.process = lambda self, ctx: (effect or (lambda c: c.ext.setdefault("ran", []).append(name)))(ctx)
    return cls()


def test_plan_sorts_by_order_and_refuses_ties_unknown_and_core():
    a, b, c = make_system("a", 300), make_system("b", 100), make_system("c", 200)
    assert [s.name for s in build_plan([a, b, c])] == ["b", "c", "a"]
    with pytest.raises(PlanError, match="'a' and 'd' both have order 300"):
        build_plan([a, make_system("d", 300)])
    with pytest.raises(PlanError, match="no system of that name"):
        build_plan([a], disabled=["nope"])
    with pytest.raises(PlanError, match="core system"):
        build_plan([a, b], disabled=["b"], core={100})
    assert [s.name for s in build_plan([a, b], disabled=["a"], core={100})] == ["b"]


def test_runner_contains_a_crash_times_every_system_and_finishes():
    def boom(ctx):
        raise RuntimeError("boom")

    finished = []
    plan = build_plan([make_system("first", 1), make_system("crash", 2, boom), make_system("last", 3)])
    ctx = run_plan(plan, Context(), finish=lambda c: finished.append(list(c.ext["ran"])))
    assert ctx.ext["ran"] == ["first", "last"]
    assert [(f.system, f.message, f.decides) for f in ctx.failures] == [
        ("crash", "crash failed: RuntimeError: boom", True)
    ]
    assert [name for name, _ in ctx.timings] == ["first", "crash", "last"]
    assert finished == [["first", "last"]]


def test_a_skipped_system_does_not_run_and_a_late_failure_no_longer_decides():
    def seal(ctx):
        ctx.sealed = True

    def boom(ctx):
        raise ValueError("late")

    plan = build_plan(
        [make_system("skipped", 1, guard=False), make_system("seal", 2, seal), make_system("late", 3, boom)]
    )
    ctx = run_plan(plan, Context())
    assert "ran" not in ctx.ext
    assert [(f.system, f.decides) for f in ctx.failures] == [("late", False)]


def test_the_order_table_has_gaps_of_100_and_core_systems_in_it():
    """Every system planned on each run at a multiple of 100; those planned on demand in between."""
    orders = [order for order, _ in BUILTIN_ORDER if order not in ON_DEMAND]
    assert orders == list(range(100, 1200, 100))
    assert all(order % 100 for order in ON_DEMAND) and ON_DEMAND <= {order for order, _ in BUILTIN_ORDER}
    assert CORE <= set(orders)
    assert Stage.FEEDBACK_GUARANTEE < Stage.RESPONSE_ROUTING < Stage.STATE_WRITE


def test_the_order_table_the_systems_and_cupcake_systems_agree(tmp_path):
    """One declaration: each built-in system's name comes from the order table, the plan `run` builds
    has them in that order, and `cupcake systems --json` (the installed command) shows that plan."""
    import json
    import subprocess

    from cupcake.systems import builtin_systems
    from tests.conftest import cupcake_executable

    plan = build_plan(builtin_systems())
    assert [(s.order, s.name) for s in plan] == [entry for entry in BUILTIN_ORDER if entry[0] not in ON_DEMAND]
    (tmp_path / "cupcake.toml").write_text('policy_schema_version = "1.0"\n')
    done = subprocess.run(
        [str(cupcake_executable()), "systems", "--json"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    shown = [(row["order"], row["name"]) for row in json.loads(done.stdout)["systems"]]
    assert shown == [(s.order, s.name) for s in plan]


def test_a_system_planned_on_demand_takes_its_place_from_the_order_table():
    """The shadow evaluation is planned by the replan after policy load, in its place in the table."""
    from cupcake.systems import builtin_systems
    from cupcake.systems.shadow_evaluation import ShadowEvaluation, planned

    assert (ShadowEvaluation.order, ShadowEvaluation.name) == (Stage.SHADOW_EVALUATION, "shadow_evaluation")
    rest = [s for s in builtin_systems() if s.order > Stage.POLICY_LOAD]
    assert [(s.order, s.name) for s in planned(rest)] == [e for e in BUILTIN_ORDER if e[0] > Stage.POLICY_LOAD]
