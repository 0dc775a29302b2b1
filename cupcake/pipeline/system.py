"""The System contract: ``name``, ``order``, ``should_process(ctx)`` (pure) and ``process(ctx)``.

``BaseSystem`` is a plain class so the hot path pays for no ``typing`` import; the
``typing.Protocol`` form for integrators lives in ``cupcake.pipeline.protocol``.
"""

from __future__ import annotations

from cupcake.pipeline.order import NAME_OF

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from typing import Any

    from cupcake.pipeline.context import Context


class BaseSystem:
    name = "unnamed"
    order = 0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A built-in system declares only its ``order`` (a ``Stage``): its name comes from the order table."""
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__ and cls.__dict__.get("order") in NAME_OF:
            cls.name = NAME_OF[cls.order]

    # A system whose job is to decide fails closed: its crash is an error of the run.
    # A writer (state, audit) only adds a warning: it never changes the decision.
    decides = True

    def should_process(self, ctx: Context) -> bool:
        return True

    def process(self, ctx: Context) -> None:  # pragma: no cover - overridden
        raise NotImplementedError
