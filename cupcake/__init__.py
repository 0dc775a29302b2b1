"""Cupcake: deterministic policies for AI coding agents, enforced through their hooks.

The integrator API (stable across minor versions; see ``cupcake.pipeline.protocol`` for the contract)::

    from cupcake import BaseSystem, Context, Decision, Stage

Names are loaded on first use, so ``import cupcake`` costs nothing on the hot path.
"""

__version__ = "0.1.0"

# name -> module that defines it. Changing this table is changing the public API.
_API = {
    "System": "cupcake.pipeline.protocol",
    "BaseSystem": "cupcake.pipeline.system",
    "Context": "cupcake.pipeline.context",
    "Stage": "cupcake.pipeline.order",
    "Decision": "cupcake.pipeline.response",
    "Response": "cupcake.pipeline.response",
    "CupcakeError": "cupcake.errors",
}

__all__ = ["__version__", *_API]

TYPE_CHECKING = False  # not typing's: `import cupcake` stays free
if TYPE_CHECKING:  # what a type checker sees for each name of the table above
    from cupcake.errors import CupcakeError as CupcakeError
    from cupcake.pipeline.context import Context as Context
    from cupcake.pipeline.order import Stage as Stage
    from cupcake.pipeline.protocol import System as System
    from cupcake.pipeline.response import Decision as Decision
    from cupcake.pipeline.response import Response as Response
    from cupcake.pipeline.system import BaseSystem as BaseSystem


def __getattr__(name: str) -> object:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'cupcake' has no attribute {name!r}")
    value = getattr(__import__(module, fromlist=(name,)), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
