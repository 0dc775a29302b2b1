"""1100 · Append the run's decision to the telemetry spool (``[telemetry] enabled = true``), and start the
forwarder that sends it when none was started within the interval.

The run's whole cost is one module, one appended line and one ``stat`` (``cupcake.stores.spool``): nothing is sent
from here, so a receiver that is slow or down never delays an answer. Runs after the answer is sealed,
so it never changes the decision: a failure becomes a warning."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake import speedups
from cupcake.pipeline.order import Stage
from cupcake.pipeline.system import BaseSystem
from cupcake.project import WORK_DIR

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from cupcake.pipeline.context import Context


def telemetry_of(ctx: Context) -> dict | None:
    """The compiled ``telemetry`` of the run's policy set when it is on, else None."""
    policies = ctx.policies
    telemetry = policies.get("telemetry") if isinstance(policies, dict) else None
    return telemetry if isinstance(telemetry, dict) and telemetry.get("enabled") is True else None


class TelemetrySpool(BaseSystem):
    order = Stage.TELEMETRY_SPOOL
    decides = False

    def should_process(self, ctx: Context) -> bool:
        return ctx.configured is True and ctx.root is not None and telemetry_of(ctx) is not None

    def process(self, ctx: Context) -> None:
        from cupcake.stores import spool

        telemetry, root = telemetry_of(ctx), ctx.root
        assert telemetry is not None and root is not None  # should_process checked them
        workdir = os.path.join(root, WORK_DIR)
        line = (speedups.json_dumps(spool.record(ctx)) + "\n").encode("utf-8", "replace")
        spool.append(workdir, line, telemetry["max_spool_bytes"])
        spool.maybe_start(workdir, root, telemetry["interval"], ctx.env)
