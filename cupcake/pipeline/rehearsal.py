"""A rehearsal: the plan a hook run goes through, over one event, with nothing recorded.

`cupcake explain`, `test` and `replay` decide through the very systems `cupcake run` does
(self-protection, the evaluator's gate, both passes, the answer's exact text), so they cannot
disagree with it. What a rehearsal leaves out is what a run leaves behind: every system placed
after the answer is rendered (session state, the audit trail, integrators' sinks), the counts and
lists a run keeps in ``.cupcake/`` (blocked stops, repeated mistakes), and, unless it is told
``runs_programs``, every program a run would start (``run_command`` checks, context from a
command, custom systems), each named in ``not_run`` instead.

A run puts one in ``ctx.options["rehearsal"]``; a hook run never has one."""

from __future__ import annotations

from cupcake.pipeline.order import Stage

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.system import BaseSystem


class Rehearsal:
    __slots__ = ("runs_programs", "not_run")

    def __init__(self, runs_programs: bool = False) -> None:
        self.runs_programs = runs_programs
        self.not_run: list[str] = []  # what a hook run would have started here, and this one did not

    def allows(self, system: BaseSystem) -> bool:
        """Whether ``system`` runs in this rehearsal (the runner asks before each one)."""
        if system.order > Stage.RESPONSE_ROUTING:
            return False  # it records what happened: nothing happened
        if getattr(system, "custom", False) and not self.runs_programs:
            self.not_run.append(f"custom system {system.name}")
            return False
        return True

    def may_run(self, what: str) -> bool:
        """Whether a program may start (``what`` names it, for ``not_run`` when it may not)."""
        if not self.runs_programs:
            self.not_run.append(what)
        return self.runs_programs
