"""The System protocol: what a pipeline system is, for integrators and type checkers.

A custom system is any object with these members; subclassing ``cupcake.BaseSystem`` gives the
defaults. It is named in ``[pipeline.systems]`` (by entry point or import path) with the order it
runs at, and Cupcake sets ``name`` and ``order`` from there. Example::

    from cupcake import BaseSystem, Decision

    class NoAwsKeys(BaseSystem):
        def should_process(self, ctx):           # pure: no side effects
            return ctx.event == "PreToolUse"

        def process(self, ctx):                  # changes ctx, returns None
            content = ctx.incoming.tool_input.get("content") or ""
            if "AKIA" in content:
                ctx.decide(Decision.BLOCK, "Remove the AWS access key", by=self.name)

A custom system runs only for an event that could be read: ``ctx.event`` is a str and
``ctx.payload`` a dict (unknown fields kept; treat it as read-only).

Where it runs decides what it may do (see the order table, ``cupcake.Stage``):

- between 200 and 600: read the event and the policies' findings; add feedback
  (``ctx.add_feedback``), context (``ctx.add_context``), or a hard decision (``ctx.decide``,
  the strictest stands);
- between 600 and 700: the answer (``ctx.response``) is prepared; it may only be replaced by a block;
- after 700 the answer is sealed: a system may read it and add warnings (``ctx.warn``), nothing
  more (sinks: audit logs, metrics).

A system never loosens what an earlier one decided, never writes to stdout, and finishes within
the run's deadline (``ctx.deadline``, a ``time.monotonic()`` value). If it raises, runs too long,
returns something other than None or breaks these rules, its changes are undone, the failure is
reported, and ``[settings] fail_mode`` decides whether the operation proceeds; a block decided by
the policies always stands. ``decides = False`` marks a system whose failure only warns (a sink).

This module imports ``typing``: import it for type checking, not at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from cupcake.pipeline.context import Context


@runtime_checkable
class System(Protocol):
    name: str  # set by Cupcake: the name in [pipeline.systems]
    order: int  # set by Cupcake: the order in [pipeline.systems]

    def should_process(self, ctx: Context) -> bool:
        """Whether ``process`` runs for this event. Pure: no side effects."""
        ...

    def process(self, ctx: Context) -> None:
        """Do the work: read ``ctx``, change it through its methods; return None."""
        ...
