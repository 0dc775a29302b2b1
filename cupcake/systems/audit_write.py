"""1000 · Append the run's decision to the audit trail (``[settings] audit_logging = true``).

Runs after the answer is sealed, so it never changes the decision: a failure (an unwritable log,
a full disk, a lock held too long) becomes a warning in the answer. A run is logged when a policy
matched, a command ran or something failed; with ``audit_allows = true``, every run is."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake import speedups
from cupcake.errors import CupcakeError
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.project import WORK_DIR

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.context import Context


def _whole(value: object, default: int, least: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= least:
        return value
    return default


class AuditWrite(BaseSystem):
    order = Stage.AUDIT_WRITE
    decides = False

    def should_process(self, ctx: Context) -> bool:
        settings = ctx.settings
        if not ctx.configured or not ctx.root:
            return False
        if settings.get("audit_logging") is not True:
            # A person's approval that let a call through is always recorded (cupcake.approvals).
            return bool(ctx.ext) and bool(ctx.ext.get("cupcake.approvals", {}).get("used"))
        from cupcake.stores.audit.record import ext_notes

        return bool(
            settings.get("audit_allows") is True
            or ctx.matched
            or ctx.checks
            or ctx.failures
            or ctx.warnings
            or ext_notes(ctx)
        )

    def process(self, ctx: Context) -> None:
        assert ctx.root is not None  # should_process checked it
        from cupcake.stores.audit import mask
        from cupcake.stores.audit.record import build
        from cupcake.stores.audit.writer import DEFAULT_KEEP, DEFAULT_MAX_BYTES, append

        mask.use_forms(ctx.policies.get("sre") if isinstance(ctx.policies, dict) else None)
        settings = ctx.settings
        try:
            append(
                os.path.join(ctx.root, WORK_DIR),
                speedups.json_dumps(build(ctx)),
                max_bytes=_whole(settings.get("audit_max_bytes"), DEFAULT_MAX_BYTES, 1),
                keep=_whole(settings.get("audit_keep"), DEFAULT_KEEP, 1),
                deadline=ctx.deadline,
            )
        except (OSError, CupcakeError):
            from cupcake.stores.workdir import standing

            if not standing(ctx):  # this run's own problem: its failure is told on this run
                raise
