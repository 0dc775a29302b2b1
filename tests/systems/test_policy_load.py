"""200 · The project root and its policies, in a fake context: no policy file means Cupcake stays
silent; settings and fail_mode come from the file; a broken policy is reported as fail_mode says."""

from __future__ import annotations

from cupcake.pipeline.context import Context
from cupcake.systems.policy_load import OUT_OF_SERVICE, PolicyLoad, report_out_of_service
from tests.fakes import fake_agent


def _loaded(fakes, toml: str | None, **options) -> Context:
    if toml is not None:
        (fakes.root / "cupcake.toml").write_text(toml)
    ctx = Context(env=fakes.env, options=dict(options, started=0.0))
    ctx.agent = fake_agent()  # no event read: the agent's environment names the project
    PolicyLoad().process(ctx)
    return ctx


def test_no_policy_file_leaves_cupcake_silent(fakes):
    ctx = _loaded(fakes, None)
    assert (ctx.root, ctx.configured, ctx.policies) == (str(fakes.root), False, None)
    assert ctx.deadline is not None  # the load itself is bounded


def test_the_settings_and_the_deadline_come_from_the_file(fakes):
    ctx = _loaded(fakes, '[settings]\nfail_mode = "closed"\nhook_timeout_seconds = 30\n')
    assert ctx.configured is True and ctx.fail_mode == "closed"
    assert ctx.deadline == 25.0  # started at 0, the hook's timeout less its margin


def test_fail_closed_on_the_command_line_wins(fakes):
    assert _loaded(fakes, "", fail_closed=True).fail_mode == "closed"


def test_a_broken_policy_is_a_failure_when_closed_and_a_warning_when_open(fakes):
    closed = fakes.context("")
    closed.fail_mode = "closed"
    report_out_of_service(closed, "cupcake.toml:3: unknown action type")
    assert [(f.system, f.decides, f.custom) for f in closed.failures] == [(OUT_OF_SERVICE, True, True)]
    opened = fakes.context("")
    report_out_of_service(opened, "cupcake.toml:3: unknown action type")
    assert opened.failures == []
    assert opened.warnings == [
        "Cupcake: out of service until fixed (every other policy is enforced):\ncupcake.toml:3: unknown action type"
    ]
