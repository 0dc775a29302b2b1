"""The shared step vocabulary of features/*.feature, in the domain's words.

## Given: policy files and the situation   ## When: the agent acts   ## Then: what Cupcake answered
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import time

import pytest
from pytest_bdd import given, parsers, then, when

from tests.conftest import Answer, captured_payload, cupcake_executable

ACTIONS = {
    "soft": '{ type = "provide_feedback", message = "lint" }',
    "block": '{ type = "block_with_feedback", feedback_message = "stop" }',
    "approve": '{ type = "approve", reason = "trusted" }',
    "ask": '{ type = "ask", reason = "a person decides" }',
}


class Run:
    """The latest answer, and how long it took."""

    answer: Answer | None = None
    seconds: float = 0.0
    cache_stat = None


@pytest.fixture
def run() -> Run:
    return Run()


def _send(project, run, payload, event=None):
    started = time.monotonic()
    run.answer = project.send(payload, event)
    run.seconds = time.monotonic() - started
    return run.answer


# ## Given ##########################################################################################


@given(parsers.parse("the project policy:"))
def project_policy(project, docstring):
    """The project's cupcake.toml, exactly as written."""
    project.write_policy(docstring)


@given(parsers.parse("the user policy:"))
def user_policy(project, docstring):
    """~/.claude/cupcake.toml, exactly as written."""
    project.write_user_policy(docstring)


@given("no policy file")
def no_policy_file(project):
    assert not (project.root / "cupcake.toml").exists()


@given(parsers.parse('a policy on "{event}" whose action is {action}'))
def policy_on_event(project, event, action):
    project.write_policy(f'[[policy]]\nname = "the policy"\nhook_event = "{event}"\naction = {ACTIONS[action]}\n')


@given(parsers.parse("the project policy with a {size:d}-character feedback message"))
def long_message_policy(project, size):
    body = "\\n".join(f"line {i:05d} " + "x" * 60 for i in range(size // 71))
    project.write_policy(
        f'[[policy]]\nname = "long"\naction = {{ type = "block_with_feedback", feedback_message = "{body}\\nTHE LAST LINE" }}\n'
    )


@given(parsers.parse('the agent works in "{subdir}" without CLAUDE_PROJECT_DIR'))
def agent_in_subdir(project, subdir):
    project.cwd = project.root / subdir
    project.cwd.mkdir(parents=True, exist_ok=True)
    project.use_project_dir_env = False


@given("the project policy file cannot be read")
def unreadable_policy(project):
    (project.root / "cupcake.toml").mkdir()  # a directory where the file should be: open() fails, even for root


@given(".cupcake cannot be written")
def unwritable_workdir(project):
    (project.root / ".cupcake").write_text("a file where the directory should be")


def _replace_process(monkeypatch, cls_path: str, behaviour):
    module_name, cls_name = cls_path.rsplit(".", 1)
    module = __import__(module_name, fromlist=[cls_name])
    monkeypatch.setattr(getattr(module, cls_name), "process", behaviour)


@given(parsers.parse('the feedback collection system crashes with "{message}"'))
def crashing_system(monkeypatch, message):
    def boom(self, ctx):
        raise RuntimeError(message)

    _replace_process(monkeypatch, "cupcake.systems.feedback_collection.FeedbackCollection", boom)


@given("the feedback collection system hangs")
def hanging_system(monkeypatch):
    def hang(self, ctx):
        time.sleep(60)

    _replace_process(monkeypatch, "cupcake.systems.feedback_collection.FeedbackCollection", hang)


@given(parsers.parse('the response routing system is preceded by a system that crashes with "{message}"'))
def late_crash(monkeypatch, message):
    import cupcake.systems as systems
    from cupcake.pipeline.system import BaseSystem

    class LateTrouble(BaseSystem):
        name = "late_trouble"
        order = 750

        def process(self, ctx):
            raise RuntimeError(message)

    original = systems.builtin_systems
    monkeypatch.setattr(systems, "builtin_systems", lambda: original() + [LateTrouble()])


# ## When ###########################################################################################


@when(parsers.re(r'the agent asks to run "(?P<command>.*)"( again)?'))
def agent_runs(project, run, command):
    _send(project, run, project.tool_call("Bash", {"command": command, "description": "run it"}))


@when(parsers.parse('the agent asks to write "{path}" with:'))
def agent_writes(project, run, path, docstring):
    target = str(project.cwd / path)
    _send(project, run, project.tool_call("Write", {"file_path": target, "content": docstring}))


@when(parsers.parse('the agent asks to edit "{path}" replacing "{old}" with "{new}"'))
def agent_edits(project, run, path, old, new):
    tool_input = {"file_path": str(project.cwd / path), "old_string": old, "new_string": new, "replace_all": False}
    _send(project, run, project.tool_call("Edit", tool_input))


@when(parsers.parse('the agent uses the tool "{tool}" with:'))
def agent_uses_tool(project, run, tool, docstring):
    _send(project, run, project.tool_call(tool, json.loads(docstring)))


@when(parsers.re(r'Claude Code sends the captured "(?P<name>[^"]+)" event(?P<rest>.*)'))
def sends_captured(project, run, name, rest):
    """A payload the real client sent, through the installed `cupcake run` process (exact bytes)."""
    payload = captured_payload(name, project)
    event = payload.get("hook_event_name")
    if "stop_hook_active true" in rest:
        payload["stop_hook_active"] = True
    if rest.startswith(' as "'):
        event = rest.split('"')[1]
    run.answer = project.send_process(payload, event)


@when(parsers.parse('Claude Code sends the "{event}" event:'))
def sends_event(project, run, event, docstring):
    _send(project, run, json.loads(docstring), event)


@when(parsers.parse('Claude Code sends "{raw}" as the {event} event'))
def sends_raw(project, run, raw, event):
    _send(project, run, raw.encode(), event)


@when(parsers.parse('the hook runs cupcake with the arguments "{arguments}"'))
def hook_runs_with_arguments(project, run, arguments):
    payload = json.dumps(project.tool_call("Bash", {"command": "ls"})).encode()
    argv = [cupcake_executable()] + shlex.split(arguments)
    done = subprocess.run(argv, input=payload, capture_output=True, cwd=project.cwd, env=project.env(), timeout=30)
    run.answer = Answer(done.stdout, done.stderr, done.returncode)


@when(parsers.parse('the project policy file is changed to block "{pattern}" instead'))
def policy_changed(project, pattern):
    path = project.root / "cupcake.toml"
    text = path.read_text().replace('"^sudo"', json.dumps(pattern))
    path.write_text(text)


@when(parsers.parse("the policy cache is {spoiled}"))
def spoil_cache(project, tmp_path, spoiled):
    cache = project.root / ".cupcake" / "policy.cache"
    data = cache.read_bytes()
    if spoiled == "truncated":
        cache.write_bytes(data[: len(data) // 2])
    elif spoiled == "filled with random bytes":
        cache.write_bytes(os.urandom(len(data)))
    elif spoiled == "flipped in one byte":
        cache.write_bytes(data[:-5] + bytes([data[-5] ^ 0x40]) + data[-4:])
    elif spoiled == "replaced by one built for another file":
        from tests.conftest import Project

        other = Project(tmp_path / "other", tmp_path / "other-home")
        other.root.mkdir()
        other.home.mkdir()
        other.write_policy('[[policy]]\nname = "allow all"\naction = { type = "approve" }\n')
        other.send(other.tool_call("Bash", {"command": "ls"}))
        cache.write_bytes((other.root / ".cupcake" / "policy.cache").read_bytes())
    else:
        raise AssertionError(f"unknown way to spoil the cache: {spoiled}")


# ## Then ###########################################################################################


def _answer(run) -> Answer:
    assert run.answer is not None, "no event was sent"
    assert run.answer.code == 0, run.answer
    return run.answer


@then("Cupcake prints nothing")
def prints_nothing(run):
    answer = _answer(run)
    assert answer.stdout == b"" and answer.stderr == b"", answer


@then(parsers.parse("Cupcake answers {expected}"))
def answers_exactly(run, expected):
    """Exact stdout, and nothing on stderr, exit code 0."""
    answer = _answer(run)
    assert answer.stderr == b"", answer
    if expected == "nothing":
        assert answer.stdout == b"", answer
    else:
        # Gherkin turns a table cell's "\n" into a newline; the JSON printed never holds a raw one.
        assert answer.stdout == expected.replace("\n", "\\n").encode() + b"\n", answer


@then(parsers.parse("the tool call is denied with:"))
def denied_with(run, docstring):
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "deny", answer
    assert answer.specific["permissionDecisionReason"] == docstring


@then(parsers.re(r"the tool call is (?P<outcome>denied|let through)"))
def denied_or_not(run, outcome):
    answer = _answer(run)
    if outcome == "denied":
        assert answer.specific.get("permissionDecision") == "deny", answer
    else:
        assert answer.stdout == b"", answer


@then(parsers.parse('the tool call is allowed with the reason "{reason}"'))
def allowed_with_reason(run, reason):
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "allow", answer
    assert answer.specific.get("permissionDecisionReason") == reason, answer


@then(parsers.parse('the person is asked with the reason "{reason}"'))
def asked(run, reason):
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "ask", answer
    assert answer.specific.get("permissionDecisionReason") == reason, answer


@then(parsers.parse("the model is given the context:"))
def given_context(run, docstring):
    assert _answer(run).specific.get("additionalContext") == docstring, run.answer


@then(parsers.parse("the model is shown at most {limit:d} characters"))
def shown_at_most(run, limit):
    assert len(_answer(run).model_text()) <= limit


@then(parsers.parse('the model is shown a note that "{text}"'))
def shown_note(run, text):
    assert text in _answer(run).model_text()


@then("the model is shown the last line of the message")
def shown_last_line(run):
    assert _answer(run).model_text().endswith("\nTHE LAST LINE")


@then(parsers.re(r'the answer is (?P<kind>only a note to the user|a denial) saying "(?P<text>.*)"'))
def failure_answer(run, kind, text):
    answer = _answer(run)
    text = text.replace('\\"', '"')
    if kind == "a denial":
        assert answer.specific.get("permissionDecision") == "deny", answer
        reason = answer.specific["permissionDecisionReason"]
        assert reason.startswith('Cupcake: could not evaluate policies, so this is blocked (fail_mode "closed")'), reason
        assert text in reason, reason
    else:
        assert set(answer.json) == {"systemMessage"}, answer
        note = answer.json["systemMessage"]
        assert note.startswith("Cupcake: "), note
        assert text in note, note


@then("no stack trace is shown")
def no_stack_trace(run):
    assert b"Traceback" not in run.answer.stdout + run.answer.stderr


@then(parsers.parse("the answer came within {seconds:d} seconds"))
def answered_within(run, seconds):
    assert run.seconds < seconds, run.seconds


@then(parsers.parse('the user is told "{text}"'))
def user_told(run, text):
    assert text in (_answer(run).json or {}).get("systemMessage", ""), run.answer


@then(parsers.parse("the exit code is {code:d}"))
def exit_code(run, code):
    assert run.answer.code == code, run.answer


@then("Cupcake created no .cupcake directory")
def no_workdir(project):
    assert not (project.root / ".cupcake").exists()
    assert not (project.cwd / ".cupcake").exists()


@then("the policy cache exists")
def cache_exists(project, run):
    cache = project.root / ".cupcake" / "policy.cache"
    assert cache.is_file()
    st = cache.stat()
    run.cache_stat = (st.st_mtime_ns, st.st_ino)


@then("the policy cache was not rewritten")
def cache_not_rewritten(project, run):
    st = (project.root / ".cupcake" / "policy.cache").stat()
    assert (st.st_mtime_ns, st.st_ino) == run.cache_stat


@then("the policy cache is valid again")
def cache_valid(project):
    from cupcake.policy import cache
    from cupcake.policy.paths import policy_files

    path = project.root / ".cupcake" / "policy.cache"
    key = cache.cache_key([cache.file_identity(p) for p in policy_files(str(project.root), project.env())])
    assert cache.read(str(path), key) is not None


@then(parsers.parse('the policy cache starts with "{magic}"'))
def cache_magic(project, magic):
    assert (project.root / ".cupcake" / "policy.cache").read_bytes().startswith(magic.encode())


# ## Checks (run_command) ###########################################################################

RUNNER_STREAMS = {"npm": "stdout", "cargo": "stderr"}  # where each stand-in test runner prints


@given(parsers.parse("the test suite fails with:"))
def suite_fails(project, docstring):
    """Stand-ins for `npm` and `cargo` on the PATH that print this and exit 1."""
    for runner, stream in RUNNER_STREAMS.items():
        script = project.bin / runner
        script.write_text(
            "#!/usr/bin/env python3\nimport sys\n"
            f"print({docstring!r}, file=sys.{stream})\nsys.exit(1)\n"
        )
        script.chmod(0o755)


@given("the test suite passes")
def suite_passes(project):
    for runner in RUNNER_STREAMS:
        script = project.bin / runner
        script.write_text("#!/bin/sh\nexit 0\n")
        script.chmod(0o755)


@given(parsers.parse('the project script "{name}" records its arguments'))
def recording_script(project, name):
    script = project.root / name
    script.write_text(
        "#!/usr/bin/env python3\nimport json, os, sys\n"
        "with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '.calls.jsonl'), 'a') as f:\n"
        "    f.write(json.dumps(sys.argv[1:]) + '\\n')\n"
    )
    script.chmod(0o755)


def _calls(project) -> list:
    path = project.root / ".calls.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@when(parsers.parse('Claude Code reports that the agent wrote "{path}"'))
def reports_write(project, run, path):
    target = str(project.root / path)
    tool_input = {"file_path": target, "content": "fn main() {}\n"}
    payload = project.tool_call("Write", tool_input, event="PostToolUse")
    payload["tool_response"] = {"type": "create", "filePath": target, "content": "fn main() {}\n"}
    _send(project, run, payload)


@when(parsers.parse('Claude Code reports that the agent ran "{command}"'))
def reports_bash(project, run, command):
    payload = project.tool_call("Bash", {"command": command, "description": "run"}, event="PostToolUse")
    payload["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}
    _send(project, run, payload)


@then(parsers.parse("the model is shown:"))
def model_shown(run, docstring):
    assert _answer(run).model_text() == docstring


@then(parsers.parse('"{name}" received exactly the arguments:'))
def received_arguments(project, name, docstring):
    calls = _calls(project)
    assert calls, f"{name} never ran"
    assert calls[-1] == json.loads(docstring)


@then(parsers.parse('"{name}" ran {count:d} times'))
def ran_times(project, name, count):
    assert len(_calls(project)) == count


@then(parsers.parse('no file "{name}" was created'))
def no_file(project, name):
    for place in (project.root, project.cwd, project.home):
        assert not (place / name).exists(), place / name


@then(parsers.parse('no process "{marker}" is left running'))
def no_process_left(marker):
    time.sleep(0.2)
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{pid}/stat") as f:
                zombie = f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            continue
        if marker in cmdline and not zombie:
            found.append(cmdline)
    assert not found, found
