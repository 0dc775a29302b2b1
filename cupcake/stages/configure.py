"""Custom stages: the configured ``[pipeline.systems]`` turned into the rest of a run's plan.

Only runs whose compiled policies name a system come here. Nothing installed runs unless it is
named; an entry point is found through the group ``cupcake.systems`` (cached, see
``stages/registry.py``), an import path is imported as written. Each custom system runs inside a
``Guarded`` fence. One that cannot be loaded is that run's failure: the others and every built-in
still run, and fail_mode says what the failure means.
"""

from __future__ import annotations

import os
import sys

from cupcake.pipeline.order import CORE, NAME_OF, ON_DEMAND, Stage
from cupcake.pipeline.plan import PlanError, build_plan
from cupcake.pipeline.runner import Failure, describe_exception
from cupcake.project import WORK_DIR
from cupcake.stages.guard import Guarded
from cupcake.stages.registry import NotFound, group_entry_points, import_object, is_import_path

GROUP = "cupcake.systems"
CACHE_NAME = "entry-points.cache"


class Resolved:
    """One configured system: where it comes from, and the system or why it could not be loaded."""

    __slots__ = ("name", "order", "file", "line", "kind", "distribution", "version", "system", "problem")

    def __init__(self, name, order, file, line):
        self.name = name
        self.order = order
        self.file = file
        self.line = line
        self.kind = "import path" if is_import_path(name) else "entry point"
        self.distribution = ""
        self.version = ""
        self.system = None
        self.problem = None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file

    @property
    def origin(self) -> str:
        if self.distribution:
            return f"{self.distribution} {self.version}".strip()
        return self.kind


def configure(ctx, rest):
    """The rest of the plan after policy load: disabled built-ins out, configured systems in."""
    entries = ctx.policies.get("systems") or ()
    planned = {system.name for system in rest}
    on_demand = {NAME_OF[order] for order in ON_DEMAND}  # turning one off that is not planned changes nothing
    disabled = [
        name for name, value, _file, _line in entries if value is False and (name in planned or name not in on_demand)
    ]
    added = []
    for item in resolve(entries, ctx.root):
        if item.problem:
            message = f'custom system "{item.name}" ({item.where}) could not be loaded: {item.problem}'
            ctx.failures.append(Failure(item.name, message, True, True))
            continue
        added.append(Guarded(item.system, item.name, item.order, item.origin))
    for system in added:
        if system.order <= Stage.POLICY_LOAD:
            raise PlanError(
                f'custom system "{system.name}" has order {system.order}: custom systems run after {Stage.POLICY_LOAD}'
            )
    return build_plan(list(rest) + added, disabled=disabled, core=CORE)


def resolve(entries, root: str | None) -> list:
    """A ``Resolved`` for every configured custom system (built-ins turned off are not listed)."""
    found = []
    group = None
    for name, order, file, line in entries:
        if order is False:
            continue
        item = Resolved(name, order, file, line)
        found.append(item)
        try:
            if item.kind == "import path":
                target = name
            else:
                if group is None:
                    group = group_entry_points(GROUP, _cache_path(root))
                if name not in group:
                    raise NotFound(_not_installed(name, group))
                target, item.distribution, item.version = group[name]
            item.system = instantiate(load_target(target))
        except Exception as exc:  # an integrator's import can raise anything: it is this system's problem
            item.problem = describe_exception(exc)
    return found


def load_target(target: str):
    target = target.split("[", 1)[0].strip()  # an entry point's extras ("mod:attr [extra]") do not matter here
    if ":" not in target:
        from importlib import import_module

        return import_module(target)
    return import_object(target)


def instantiate(obj):
    """A system from what the name points at: a class (made with no arguments) or an object."""
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as exc:
            raise NotFound(f"{obj.__name__}() failed: {describe_exception(exc)}") from None
    if not callable(getattr(obj, "process", None)) or not callable(getattr(obj, "should_process", None)):
        raise NotFound(
            f"{obj!r} is not a system: it needs should_process(ctx) and process(ctx) (subclass cupcake.BaseSystem)"
        )
    return obj


def _not_installed(name: str, group: dict) -> str:
    from cupcake.problems import suggestion

    text = f'no installed distribution has an entry point "{name}" in the group "{GROUP}" (Python {sys.executable})'
    hint = suggestion(name, group)
    if hint:
        return text + hint
    if group:
        return text + "; installed: " + ", ".join(sorted(group)[:8])
    return text


def _cache_path(root):
    return os.path.join(root, WORK_DIR, CACHE_NAME) if root else None
