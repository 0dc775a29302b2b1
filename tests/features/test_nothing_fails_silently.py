"""Binds features/nothing_fails_silently.feature; its own steps are below (the shared ones are in conftest)."""

from pytest_bdd import parsers, scenarios, when

scenarios("nothing_fails_silently.feature")


@when(parsers.re(r'the cupcake command gets "(?P<raw>[^"]*(?:"[^"]*)*)" on stdin as the (?P<event>\w+) event'))
def command_gets_raw(project, run, raw, event):
    """The installed `cupcake` executable in a fresh process (as Claude Code runs it), given these bytes."""
    run.answer = project.send_process(raw.encode(), event)
