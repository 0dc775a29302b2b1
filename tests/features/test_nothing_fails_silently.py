"""Binds features/nothing_fails_silently.feature; its own steps are below (the shared ones are in conftest)."""

import json
import os
import subprocess

from pytest_bdd import given, parsers, scenarios, then, when

from tests.conftest import Answer, cupcake_executable

scenarios("nothing_fails_silently.feature")


@when(parsers.re(r'the cupcake command gets "(?P<raw>[^"]*(?:"[^"]*)*)" on stdin as the (?P<event>\w+) event'))
def command_gets_raw(project, run, raw, event):
    """The installed `cupcake` executable in a fresh process (as Claude Code runs it), given these bytes."""
    run.answer = project.send_process(raw.encode(), event)


def _installed_copy(project, tmp_path, record: bool = False):
    """The project's own installation of Cupcake, holding a copy of the installed package (and, with
    ``record``, its install record) to change; the real installation is left alone."""
    return project.installation.copy_package(record=record)


@given(parsers.parse('the installed Cupcake\'s module "{module}" is broken'))
def broken_module(project, tmp_path, module):
    """The module raises ImportError, in a copy of the installed package that every `cupcake` process finds first."""
    target = _installed_copy(project, tmp_path) / module
    target.write_text('raise ImportError("broken on purpose")\n' + target.read_text())


@given(
    parsers.re(
        r"a copy of the installed Cupcake (?P<record>with|without) its install record comes first on the Python path"
    )
)
def installed_copy(project, tmp_path, run, record):
    """With its install record (what pip writes on every install), or without (as a source checkout)."""
    run.copy = _installed_copy(project, tmp_path, record=record == "with")


@when(parsers.parse('the copy\'s "{path}" is changed'))
def copy_changed(run, path):
    """``path`` in the copy: a module, or "its install record" (as a new install of other code writes it)."""
    if path == "its install record":
        (target,) = run.copy.glob("cupcake-*.dist-info/RECORD")
    else:
        target = run.copy / path
    text = target.read_text()
    target.unlink()
    target.write_text(text + "\n# changed\n")


@then("the policy cache was rebuilt")
def cache_rebuilt(project, run):
    """The policy cache was written again (another time or inode than when first seen)."""
    st = (project.root / ".cupcake" / "policy.cache").stat()
    assert run.cache_stat is not None and (st.st_mtime_ns, st.st_ino) != run.cache_stat


@when(parsers.parse('Claude Code runs the {event} hook that sync wrote, for the command "{command}"'))
def runs_synced_hook(project, run, event, command):
    """The command line `cupcake sync` wrote in .claude/settings.local.json, run by a shell as Claude Code does."""
    settings = json.loads((project.root / ".claude" / "settings.local.json").read_text())
    line = settings["hooks"][event][0]["hooks"][0]["command"]
    env = project.env()
    if project.executable() != cupcake_executable():  # the test changed what is installed: run that installation
        line = line.replace(cupcake_executable(), project.executable())
        env["PATH"] = os.pathsep.join([os.path.dirname(project.executable()), env["PATH"]])
    payload = json.dumps(project.tool_call("Bash", {"command": command}, event)).encode()
    done = subprocess.run(["sh", "-c", line], input=payload, capture_output=True, cwd=project.root, env=env, timeout=30)
    run.answer = Answer(done.stdout, done.stderr, done.returncode)


@then(parsers.re(r'the hook (?P<outcome>blocks the call \(exit 2\)|only tells the user) saying "(?P<text>.*)"'))
def hook_outcome(run, outcome, text):
    """The installed hook command blocks the call (exit 2) or only tells the user, with the text."""
    text = text.replace('\\"', '"')
    answer = run.answer
    assert b"Traceback" not in answer.stdout + answer.stderr, answer
    if outcome.startswith("blocks"):
        assert answer.code == 2 and answer.stdout == b"", answer
        assert answer.stderr.decode().startswith(text), answer
    else:
        assert answer.code == 0 and set(answer.json) == {"systemMessage"}, answer
        assert answer.json["systemMessage"].startswith(text), answer


@when(
    parsers.re(
        r'Claude Code sends the captured "(?P<name>[^"]+)" event, then (?P<more>\d+) more times? with stop_hook_active true'
    )
)
def sends_captured_repeatedly(project, run, name, more):
    """The captured payload through the installed `cupcake run`, then again as Claude Code repeats it
    after a blocked stop; every answer is kept."""
    from tests.conftest import captured_payload

    payload = captured_payload(name, project)
    run.answers = [project.send_process(payload)]
    payload["stop_hook_active"] = True
    for _ in range(int(more)):
        run.answers.append(project.send_process(payload))
    run.answer = run.answers[-1]


@then(parsers.parse('the first {n:d} stops were blocked with "{reason}"'))
def first_stops_blocked(run, n, reason):
    """The first N Stop events were each blocked with the reason."""
    assert len(run.answers) == n + 1, run.answers
    for answer in run.answers[:n]:
        assert answer.code == 0 and answer.json == {"decision": "block", "reason": reason}, answer


@then(parsers.parse('the last stop went through, and the user is told "{text}"'))
def last_stop_through(run, text):
    """The last Stop event was let through, with a note to the user."""
    answer = run.answers[-1]
    assert answer.code == 0 and set(answer.json) == {"systemMessage"}, answer
    assert text in answer.json["systemMessage"], answer


@then(parsers.parse('"{name}" has a Cupcake hook on "{event}"'))
def has_hook_on(terminal, name, event):
    """A Cupcake handler (any command form) is among the settings file's hooks for ``event``."""
    from tests.features.steps.sync import _cupcake_handlers, _settings_json

    assert event in {e for e, _, _ in _cupcake_handlers(_settings_json(terminal, name))}
