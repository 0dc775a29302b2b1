"""Build the ordered plan: built-in systems plus configured ones, sorted, ties and unknown names refused."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable

    from cupcake.pipeline.system import BaseSystem


class PlanError(ValueError):
    """The configured pipeline cannot be built; the message says which system and why."""


def build_plan(
    systems: Iterable[BaseSystem], disabled: Collection[str] = (), core: Collection[int] = frozenset()
) -> list[BaseSystem]:
    """Return ``systems`` sorted by order, without the ``disabled`` names.

    ``core`` holds the orders of systems that cannot be disabled.
    """
    names: dict[str, BaseSystem] = {}
    orders: dict[int, BaseSystem] = {}
    for system in systems:
        if not isinstance(getattr(system, "name", None), str) or not isinstance(getattr(system, "order", None), int):
            raise PlanError(f"{system!r} is not a system: it needs a str `name` and an int `order`")
        if system.name in names:
            raise PlanError(f"two systems are named {system.name!r}")
        if system.order in orders:
            raise PlanError(
                f"systems {orders[system.order].name!r} and {system.name!r} both have order {system.order};"
                " give one of them a free number"
            )
        names[system.name] = system
        orders[system.order] = system
    for name in disabled:
        if name not in names:
            raise PlanError(f"cannot disable {name!r}: there is no system of that name")
        if names[name].order in core:
            raise PlanError(f"{name!r} is a core system (it loads, evaluates or answers) and cannot be disabled")
    off = set(disabled)
    return sorted((s for s in systems if s.name not in off), key=lambda s: s.order)
