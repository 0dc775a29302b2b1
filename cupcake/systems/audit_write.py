"""1000 · Append the run's decision to the audit trail (runs after the answer is sealed).

The audit trail is its own piece of work: until it lands, this system never runs (and
``audit_logging = true`` is refused by the loader as not supported yet)."""

from __future__ import annotations

from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem


class AuditWrite(BaseSystem):
    name = "audit_write"
    order = Stage.AUDIT_WRITE
    decides = False

    def should_process(self, ctx) -> bool:
        return False
