"""The built-in systems, one module each; how the plan goes on after policy load; and how a run is
finished whatever happened."""

from __future__ import annotations

from cupcake.pipeline.order import Stage
from cupcake.systems.audit_write import AuditWrite
from cupcake.systems.feedback_collection import FeedbackCollection
from cupcake.systems.feedback_guarantee import FeedbackGuarantee, ensure_response
from cupcake.systems.hard_action_scan import HardActionScan
from cupcake.systems.input_parse import InputParse
from cupcake.systems.policy_load import PolicyLoad
from cupcake.systems.response_preparation import ResponsePreparation
from cupcake.systems.response_routing import ResponseRouting, ensure_envelope
from cupcake.systems.state_load import StateLoad
from cupcake.systems.state_write import StateWrite
from cupcake.systems.telemetry_spool import TelemetrySpool

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.context import Context
    from cupcake.pipeline.system import BaseSystem

BUILTIN = (
    InputParse,
    PolicyLoad,
    StateLoad,
    FeedbackCollection,
    HardActionScan,
    ResponsePreparation,
    FeedbackGuarantee,
    ResponseRouting,
    StateWrite,
    AuditWrite,
    TelemetrySpool,
)


def builtin_systems() -> list[BaseSystem]:
    return [cls() for cls in BUILTIN]


def configured_plan(ctx: Context, rest: list[BaseSystem]) -> list[BaseSystem]:
    """After policy load: the rest of the plan as ``[pipeline.systems]`` has it, and the shadow
    evaluation when a candidate or observed policy exists. Runs that name neither import nothing more."""
    policies = ctx.policies
    if not policies:
        return rest
    if "shadow" in policies or "observe" in policies:
        from cupcake.systems.shadow_evaluation import planned

        rest = planned(rest)
    if not policies.get("systems"):
        return rest
    from cupcake.stages.configure import configure

    return configure(ctx, rest)


# The runner's ``replan``: once the policies are loaded, the configured custom systems join the plan.
REPLAN = (Stage.POLICY_LOAD, configured_plan)


def finish(ctx: Context) -> None:
    """The guarantee outside the pipeline: an answer exists and is rendered, even after a crash."""
    ensure_response(ctx)
    ensure_envelope(ctx)
