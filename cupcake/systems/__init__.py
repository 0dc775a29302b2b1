"""The built-in systems, one module each, and how a run is finished whatever happened."""

from __future__ import annotations

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


def builtin_systems():
    return [cls() for cls in BUILTIN]


def finish(ctx) -> None:
    """The guarantee outside the pipeline: an answer exists and is rendered, even after a crash."""
    ensure_response(ctx)
    ensure_envelope(ctx)
