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


def __getattr__(name):
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'cupcake' has no attribute {name!r}")
    value = getattr(__import__(module, fromlist=(name,)), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_API))
