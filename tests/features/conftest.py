"""The shared step vocabulary of features/*.feature, in the domain's words.

## Given: policy files and the situation   ## When: the agent acts   ## Then: what Cupcake answered
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time

import pytest
from pytest_bdd import given, parsers, then, when

from tests.conftest import REPO, Answer, captured_payload, cupcake_executable, forget_modules, install_on_path

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
    fix = ""


@pytest.fixture
def run() -> Run:
    return Run()


def _send(project, run, payload, event=None, process=False):
    started = time.monotonic()
    run.answer = project.send_process(payload, event) if process else project.send(payload, event)
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


@given(parsers.parse('the project file "{path}" holds:'))
def project_file(project, path, docstring):
    target = project.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(docstring + "\n")


@given(parsers.parse('the project file "{path}" holds a {size:d}-character text'))
def long_project_file(project, path, size):
    """Numbered lines of about ``size`` characters, ending with the line "THE LAST LINE"."""
    target = project.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(f"line {i:05d} " + "x" * 60 for i in range(size // 71)) + "\nTHE LAST LINE\n")


@given(parsers.parse('"{path}" is a symlink to a file outside the project holding "{text}"'))
def symlink_outside(project, path, text):
    outside = project.root.parent / "outside.txt"
    outside.write_text(text + "\n")
    link = project.root / path
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside)


def _program(project, name: str, text: str, code: int) -> None:
    """A stand-in program on the PATH Cupcake sees, printing ``text`` (on stderr when it fails)."""
    stream = "stdout" if code == 0 else "stderr"
    script = project.bin / name
    script.write_text(f"#!/usr/bin/env python3\nimport sys\nprint({text!r}, file=sys.{stream})\nsys.exit({code})\n")
    script.chmod(0o755)


@given(parsers.parse('the program "{name}" prints:'))
def program_prints(project, name, docstring):
    _program(project, name, docstring, 0)


@given(parsers.parse('the program "{name}" fails with:'))
def program_fails(project, name, docstring):
    _program(project, name, docstring, 1)


EVAL_DIR = "logs/evals"
MISTAKES = ".cupcake/repeated-mistakes.txt"


@given(parsers.parse('the evaluator wrote "{name}":'))
def evaluator_wrote(project, name, docstring):
    """An eval file in logs/evals/, modified after every eval written before it in the scenario."""
    _write_eval(project, name, docstring)


@given(parsers.parse("the evaluator wrote an eval whose notes are {size:d} characters long"))
def evaluator_wrote_long(project, size):
    notes = "\n".join(f"note {i:05d} " + "y" * 60 for i in range(size // 71))
    _write_eval(project, "eval-long.json", json.dumps({"eval_notes": notes}))


def _write_eval(project, name: str, text: str) -> None:
    target = project.root / EVAL_DIR / name
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text + "\n")
    written = getattr(project, "evals_written", 0) + 1
    project.evals_written = written
    stamp = time.time() - 3600 + written * 10  # whole seconds apart: no file system ties
    os.utime(target, (stamp, stamp))


@given(parsers.parse("the cumulative list of repeated mistakes holds:"))
def mistakes_given(project, docstring):
    target = project.root / MISTAKES
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(docstring + "\n")


@given(parsers.parse('"{link}" is a symlink to "{target}"'))
def symbolic_link(project, link, target):
    """``link`` relative to the project root (``~/`` for the home); ``target`` as written."""
    path = project.place(link)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


@given(parsers.parse('the file "{path}" exists'))
def file_exists(project, path):
    target = project.place(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("{}\n" if path.endswith(".json") else "exists\n")


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


# ## Given: integrators' systems ###################################################################


@given(parsers.parse('the integrator package "{name}" is installed'))
def integrator_package_installed(request, name):
    """Its .dist-info (entry points included) and its sources are on the path, for this test only."""
    assert name == "acme-cupcake", f"no example integrator package {name!r}"
    request.getfixturevalue("acme_installed")


@given(parsers.parse('the integrator module "{filename}":'))
def integrator_module(request, monkeypatch, project, filename, docstring):
    """A module of the integrator's (or the project's own), importable by its import path."""
    modules = project.home.parent / "modules"
    modules.mkdir(exist_ok=True)
    (modules / filename).write_text(docstring + "\n")
    name = filename.removesuffix(".py")
    install_on_path(monkeypatch, project, modules)
    forget_modules(name)
    request.addfinalizer(lambda: forget_modules(name))


# ## When ###########################################################################################


@when(parsers.re(r'(?s)the agent asks to run "(?P<command>.*)"( again)?'))
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


TOOL_INPUTS = {  # what each file-writing tool sends for a path
    "Write": lambda p: {"file_path": p, "content": "changed\n"},
    "Edit": lambda p: {"file_path": p, "old_string": "a", "new_string": "b", "replace_all": False},
    "MultiEdit": lambda p: {"file_path": p, "edits": [{"old_string": "a", "new_string": "b"}]},
    "NotebookEdit": lambda p: {"notebook_path": p, "cell_id": "c1", "new_source": "x = 1", "edit_mode": "replace"},
    "Read": lambda p: {"file_path": p},
}


@when(parsers.parse('the agent uses {tool} on "{path}"'))
def agent_uses_tool_on(project, run, tool, path):
    """``path`` relative to the agent's working directory, or under ``~/``, or absolute."""
    _send(project, run, project.tool_call(tool, TOOL_INPUTS[tool](str(project.place(path, project.cwd)))))


@when(parsers.parse('the file "{path}" is added:'))
def file_added(project, path, docstring):
    target = project.place(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(docstring)


@when(parsers.parse('the file "{path}" is changed to:'))
def file_changed(project, path, docstring):
    target = project.place(path)
    before = target.stat().st_mtime_ns
    target.write_text(docstring)
    if target.stat().st_mtime_ns == before:  # a coarse clock: make the change visible
        os.utime(target, ns=(before + 1_000_000, before + 1_000_000))


@when(parsers.parse('the agent asks, through the cupcake command, to write "{path}" with:'))
def agent_writes_process(project, run, path, docstring):
    target = str(project.cwd / path)
    _send(project, run, project.tool_call("Write", {"file_path": target, "content": docstring}), process=True)


@when(parsers.parse('the agent asks, through the cupcake command, to run "{command}"'))
def agent_runs_process(project, run, command):
    _send(project, run, project.tool_call("Bash", {"command": command, "description": "run it"}), process=True)


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
    elif spoiled.startswith("forged to switch every policy off"):
        # The attack of issue 15: rewrite the compiled set so nothing is enforced, keep the key (it is
        # readable), and seal it again: with a made-up secret, or with the user's own (an agent running
        # as the user can read it).
        import marshal

        from cupcake.policy import cache as policy_cache

        body = data[8 + policy_cache.MAC_LENGTH :]
        key, compiled = marshal.loads(body)
        compiled["settings"]["self_protection"] = False
        compiled["policies"] = []
        compiled["index"] = {}
        forged = marshal.dumps((key, compiled))
        if spoiled.endswith("with the user's own secret"):
            secret = policy_cache.secret(project.env()) or policy_cache.UNKEYED
        else:
            secret = os.urandom(32)
        cache.write_bytes(policy_cache.MAGIC + policy_cache.mac(secret, forged) + forged)
        os.utime(cache, ns=(cache.stat().st_atime_ns, cache.stat().st_mtime_ns))
    else:
        raise AssertionError(f"unknown way to spoil the cache: {spoiled}")


@when(parsers.parse('the user submits the prompt "{prompt}"'))
def user_submits(project, run, prompt):
    _send(project, run, project.payload("UserPromptSubmit", prompt=prompt))


@when("a session starts")
def session_starts(project, run):
    _send(project, run, project.payload("SessionStart", source="startup"))


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


@then("the model is given no context")
def given_no_context(run):
    assert "additionalContext" not in _answer(run).specific, run.answer


@then(parsers.parse('nothing shown contains "{text}"'))
def nothing_contains(run, text):
    assert text.encode() not in run.answer.stdout + run.answer.stderr, run.answer


@then(parsers.parse("the model is shown at most {limit:d} characters"))
def shown_at_most(run, limit):
    assert len(_answer(run).model_text()) <= limit


@then(parsers.parse('the model is shown a note that "{text}"'))
def shown_note(run, text):
    assert text in _answer(run).model_text()


@then("the model is shown the last line of the message")
def shown_last_line(run):
    assert _answer(run).model_text().endswith("\nTHE LAST LINE")


@then(parsers.parse('the model is shown the last line of the message, then "{text}"'))
def shown_last_line_then(run, text):
    assert _answer(run).model_text().endswith(f"\nTHE LAST LINE\n\n{text}"), run.answer


@then(parsers.re(r'the answer is (?P<kind>only a note to the user|a denial) saying "(?P<text>.*)"'))
def failure_answer(run, kind, text):
    answer = _answer(run)
    text = text.replace('\\"', '"')
    if kind == "a denial":
        assert answer.specific.get("permissionDecision") == "deny", answer
        reason = answer.specific["permissionDecisionReason"]
        assert reason.startswith("Cupcake: ") and 'so this is blocked (fail_mode "closed")' in reason, reason
        assert text in reason, reason
    else:
        assert set(answer.json) == {"systemMessage"}, answer
        note = answer.json["systemMessage"]
        assert note.startswith("Cupcake: "), note
        assert text in note, note


@then(parsers.parse("the output is:"))
def output_is(run, docstring):
    """Exactly what the command printed on stdout."""
    assert run.answer.stdout.decode() == docstring + "\n", run.answer


@then(parsers.parse("the output is the JSON:"))
def output_is_json(run, docstring):
    assert json.loads(run.answer.stdout) == json.loads(docstring), run.answer


@then("no stack trace is shown")
def no_stack_trace(run):
    assert b"Traceback" not in run.answer.stdout + run.answer.stderr


@then(parsers.parse("the answer came within {seconds:d} seconds"))
def answered_within(run, seconds):
    assert run.seconds < seconds, run.seconds


@then(parsers.parse('the user is told "{text}"'))
def user_told(run, text):
    """``\\"`` and ``\\n`` in the quoted text stand for a quote and a newline."""
    text = text.replace('\\"', '"').replace("\\n", "\n")
    assert text in (_answer(run).json or {}).get("systemMessage", ""), run.answer


@then("the user is told nothing")
def user_told_nothing(run):
    assert "systemMessage" not in (_answer(run).json or {}), run.answer


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
    from cupcake.project import policy_files

    path = project.root / ".cupcake" / "policy.cache"
    key = cache.cache_key([cache.file_identity(p) for p in policy_files(str(project.root), project.env())])
    assert cache.read(str(path), key, project.env()) is not None


@then(parsers.parse('the policy cache starts with "{magic}"'))
def cache_magic(project, magic):
    assert (project.root / ".cupcake" / "policy.cache").read_bytes().startswith(magic.encode())


# ## Then: custom stages ############################################################################


def _markdown_table(text: str, first_header: str) -> list:
    """The rows of the markdown table whose first header cell is ``first_header``."""
    rows, inside = [], False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells and cells[0] == first_header:
            inside = True
            rows.append(cells)
        elif inside and cells:
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif inside:
            break
    return rows


@then("the built-in systems, in cupcake/pipeline/order.py and in the README, are:")
def builtin_order_table(datatable):
    from cupcake.pipeline.order import BUILTIN_ORDER, CORE

    header, rows = datatable[0], datatable[1:]
    assert header == ["order", "system", "core", "what it does"]
    assert [(int(r[0]), r[1]) for r in rows] == list(BUILTIN_ORDER)
    assert [r[2] == "yes" for r in rows] == [order in CORE for order, _ in BUILTIN_ORDER]
    assert _markdown_table((REPO / "README.md").read_text(), "order") == datatable


@then(parsers.parse('no module of "{prefix}" was loaded'))
def module_not_loaded(prefix):
    import sys

    assert not [n for n in sys.modules if n == prefix or n.startswith(prefix + ".")]


@then(parsers.parse('"{path}" holds the decisions:'))
def holds_decisions(project, path, datatable):
    records = [json.loads(line) for line in (project.root / path).read_text().splitlines()]
    header = datatable[0]
    shown = [[str(r.get(k) or "") for k in header] for r in records]
    assert shown == datatable[1:], shown


@then(parsers.parse('stderr holds "{text}"'))
def stderr_holds(run, text):
    assert text in run.answer.stderr.decode(), run.answer


@then("the JSON lists the custom systems:")
def json_custom_systems(run, datatable):
    report = json.loads(run.answer.stdout)
    header = datatable[0]
    custom = [row for row in report["systems"] if row["from"] != "built-in"]

    def cell(value):
        return (
            {True: "yes", False: "no", None: ""}.get(value, value)
            if not isinstance(value, int) or isinstance(value, bool)
            else str(value)
        )

    assert [[cell(row[k]) for k in header] for row in custom] == datatable[1:], custom


@then(parsers.parse('the JSON reports the problem "{text}"'))
def json_problem(run, text):
    text = text.replace('\\"', '"')
    problems = [p["message"] for p in json.loads(run.answer.stdout)["problems"]]
    assert any(text in p for p in problems), problems


# ## Checks (run_command) ###########################################################################

RUNNER_STREAMS = {"npm": "stdout", "cargo": "stderr"}  # where each stand-in test runner prints


@given(parsers.parse("the test suite fails with:"))
def suite_fails(project, docstring):
    """Stand-ins for `npm` and `cargo` on the PATH that print this and exit 1."""
    for runner, stream in RUNNER_STREAMS.items():
        script = project.bin / runner
        script.write_text(f"#!/usr/bin/env python3\nimport sys\nprint({docstring!r}, file=sys.{stream})\nsys.exit(1)\n")
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


# ## Installation (cupcake sync, cupcake doctor) ####################################################


class Terminal:
    """The user's shell: which `cupcake` its PATH finds, the files as they were before, their stats."""

    def __init__(self, project):
        self.project = project
        self.path_mode = "without cupcake"
        self.originals: dict[str, bytes] = {}
        self.stats_before: dict[str, tuple] = {}

    def file(self, name: str):
        from pathlib import Path

        if name.startswith("~/"):
            return self.project.home / name[2:]
        return Path(self.project.root) / name

    def env(self) -> dict:
        env = self.project.env()
        venv_bin = os.path.dirname(os.path.abspath(sys.executable))
        rest = [
            d
            for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not os.access(os.path.join(d, "cupcake"), os.X_OK)
        ]
        first = [str(self.project.bin)]
        if self.path_mode == "empty":  # nothing but the project's own stand-ins
            rest = []
        if self.path_mode == "with cupcake":
            first.append(venv_bin)
        env["PATH"] = os.pathsep.join(first + rest)
        return env


@pytest.fixture
def terminal(project) -> Terminal:
    return Terminal(project)


def installation() -> str:
    """This installation's `cupcake` launcher (what local and user scope write)."""
    from cupcake.agents.claude.hook_entries import installation_executable

    found = installation_executable()
    assert found, "the cupcake launcher is not installed beside this Python"
    return found


def _expand(text: str) -> str:
    return text.replace("$CUPCAKE", installation())


class CliOutput:
    """What a cupcake command printed, and its exit code (shaped like Answer for the shared steps)."""

    def __init__(self, stdout: str, stderr: str, code: int):
        self.stdout = stdout.encode()
        self.stderr = stderr.encode()
        self.code = code
        self.text = stdout + stderr

    def __repr__(self) -> str:
        return f"CliOutput(code={self.code}, stdout={self.stdout.decode()!r}, stderr={self.stderr.decode()!r})"


def _stat(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ino, st.st_size)


def _cupcake_cli(terminal, run, monkeypatch, arguments: str, answer: str | None = None) -> CliOutput:
    """The command line, in process (fast): the user's environment, in the project directory."""
    import contextlib
    import io

    from cupcake.cli.app import main

    for name in (".claude/settings.json", ".claude/settings.local.json", "~/.claude/settings.json", ".gitignore"):
        terminal.stats_before[name] = _stat(terminal.file(name))
    out, err = io.StringIO(), io.StringIO()
    with monkeypatch.context() as m:
        for key in ("CLAUDE_PROJECT_DIR", "CUPCAKE_TIMINGS"):
            m.delenv(key, raising=False)
        for key, value in terminal.env().items():
            m.setenv(key, value)
        m.chdir(terminal.project.cwd)
        m.setattr("sys.stdin", io.StringIO(answer + "\n" if answer is not None else ""))
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(shlex.split(arguments))
    run.answer = CliOutput(out.getvalue(), err.getvalue(), code)
    return run.answer


def _settings_json(terminal, name: str) -> dict:
    return json.loads(terminal.file(name).read_text())


def _cupcake_handlers(settings: dict) -> list[tuple]:
    """(event, matcher or None, handler) for every Cupcake hook in a settings object."""
    from cupcake.agents.claude.hook_entries import is_cupcake

    found = []
    for event, groups in settings.get("hooks", {}).items():
        for group in groups:
            for handler in group.get("hooks", []):
                if is_cupcake(handler.get("command"), also=("/opt/tools/cupcake",)):
                    found.append((event, group.get("matcher"), handler))
    return found


def _without_protections(settings: dict) -> None:
    """Take out the protections sync writes beside the hooks: Edit(//…) deny rules and the sandbox's
    denyWrite paths (and the containers sync created for them)."""
    permissions = settings.get("permissions")
    if isinstance(permissions, dict) and isinstance(permissions.get("deny"), list):
        permissions["deny"] = [r for r in permissions["deny"] if not str(r).startswith("Edit(//")]
    sandbox = settings.get("sandbox")
    if isinstance(sandbox, dict) and isinstance(sandbox.get("filesystem"), dict):
        sandbox["filesystem"].pop("denyWrite", None)
        if not sandbox["filesystem"]:
            sandbox.pop("filesystem")
        if not sandbox:
            settings.pop("sandbox")


def _without_cupcake(settings: dict) -> dict:
    """The settings with Cupcake's handlers taken out, and the groups and lists left empty by that."""
    from cupcake.agents.claude.hook_entries import is_cupcake

    settings = json.loads(json.dumps(settings))
    _without_protections(settings)
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return settings
    for event in list(hooks):
        groups = []
        for group in hooks[event]:
            handlers = [h for h in group.get("hooks", []) if not is_cupcake(h.get("command"))]
            if handlers or not group.get("hooks"):
                groups.append(dict(group, hooks=handlers))
        if groups:
            hooks[event] = groups
        else:
            del hooks[event]
    if not hooks:
        del settings["hooks"]
    return settings


# Given


@given(parsers.parse('the file "{name}":'))
def given_file(terminal, name, docstring):
    path = terminal.file(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(docstring + "\n")
    terminal.originals[name] = path.read_bytes()


@given(parsers.parse('the file "{name}" with no newline at the end:'))
def given_file_no_newline(terminal, name, docstring):
    path = terminal.file(name)
    path.write_text(docstring)
    terminal.originals[name] = path.read_bytes()


@given(parsers.parse('the file "{name}" is empty'))
def given_empty_file(terminal, name):
    path = terminal.file(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    terminal.originals[name] = b""


@given(parsers.parse('"{link}" is a symlink to "{target}" holding:'))
def given_symlink(terminal, link, target, docstring):
    target_path = terminal.file(target)
    target_path.parent.mkdir(parents=True, exist_ok=True)
    target_path.write_text(docstring + "\n")
    link_path = terminal.file(link)
    link_path.parent.mkdir(parents=True, exist_ok=True)
    link_path.symlink_to(target_path)


@given("cupcake is on the PATH")
@when("cupcake is on the PATH")
def cupcake_on_path(terminal):
    terminal.path_mode = "with cupcake"


@given("cupcake is not on the PATH")
def cupcake_not_on_path(terminal):
    terminal.path_mode = "without cupcake"


@given("another program named cupcake comes first on the PATH")
def other_cupcake_first(terminal):
    script = terminal.project.bin / "cupcake"
    script.write_text("#!/bin/sh\necho 'other-tool 1.0'\n")
    script.chmod(0o755)


@given(parsers.parse('the project policy file is changed to say fail_mode "{mode}"'))
@when(parsers.parse('the project policy file is changed to say fail_mode "{mode}"'))
def policy_fail_mode(project, mode):
    path = project.root / "cupcake.toml"
    text = path.read_text() if path.exists() else ""
    if 'fail_mode = "' in text:
        text = text.replace('fail_mode = "closed"', f'fail_mode = "{mode}"').replace(
            'fail_mode = "open"', f'fail_mode = "{mode}"'
        )
    else:
        text = f'[settings]\nfail_mode = "{mode}"\n\n' + text
    path.write_text(text)


@given(parsers.parse('in "{name}" the {event} hook is changed to "{command}"'))
def hook_changed(terminal, name, event, command):
    path = terminal.file(name)
    path.write_text(path.read_text().replace(f'"cupcake run --event {event}"', json.dumps(command)))


# When


@given(parsers.re(r'the user runs "cupcake (?P<arguments>.*?)"( again)?(?: and answers "(?P<answer>[^"]*)")?'))
@when(parsers.re(r'the user runs "cupcake (?P<arguments>.*?)"( again)?(?: and answers "(?P<answer>[^"]*)")?'))
def user_runs(terminal, run, monkeypatch, request, arguments, answer):
    """The answer, when given, is typed at the first question (without one, questions get no answer)."""
    if "$STANDIN" in arguments:
        arguments = arguments.replace("$STANDIN", shlex.quote(standin_command(request.getfixturevalue("standin"))))
    _cupcake_cli(terminal, run, monkeypatch, arguments, answer)


# Then


@then(parsers.parse('the output says "{text}"'))
def output_says(run, text):
    assert _expand(text) in run.answer.text, run.answer


@then(parsers.parse('the user is warned "{text}"'))
def user_warned(run, text):
    warnings = [line for line in run.answer.stderr.decode().splitlines() if line.startswith("warning: ")]
    assert any(_expand(text) in line for line in warnings), run.answer


@then("the user is not warned")
def user_not_warned(run):
    assert b"warning:" not in run.answer.stderr, run.answer


@then(parsers.parse('"{name}" has Cupcake\'s hooks:'))
def has_hooks_table(terminal, name, datatable):
    header, *rows = datatable
    found = _cupcake_handlers(_settings_json(terminal, name))
    expected = []
    for row in rows:
        cells = dict(zip(header, row))
        matcher = None if cells["matcher"] == "none" else json.loads(cells["matcher"])
        handler = {"type": "command", "command": _expand(cells["command"]), "timeout": int(cells["timeout"])}
        expected.append((cells["event"], matcher, handler))
    assert found == expected


@then(parsers.parse('"{name}" calls "{command}" on every event, with timeout {timeout:d}'))
def calls_on_every_event(terminal, name, command, timeout):
    from cupcake.agents.claude.hook_entries import EVENTS, NO_MATCHER

    found = _cupcake_handlers(_settings_json(terminal, name))
    assert sorted(event for event, _, _ in found) == sorted(EVENTS), found
    for event, matcher, handler in found:
        assert handler == {"type": "command", "command": _expand(command).replace("<Event>", event), "timeout": timeout}
        assert matcher in ("", None) and (matcher == "" or event in NO_MATCHER), (event, matcher)  # every call


@then(parsers.parse('"{name}" has the user\'s hook "{command}" on "{event}"'))
def has_user_hook(terminal, name, command, event):
    groups = _settings_json(terminal, name)["hooks"][event]
    assert any(h.get("command") == command for g in groups for h in g.get("hooks", [])), groups


@then(parsers.parse('"{name}" keeps the original text, only added to'))
def only_added_to(terminal, name):
    """Every byte of the original is still there and in place: the edit inserted text, nothing else."""
    import difflib

    new = terminal.file(name).read_text()
    old = terminal.originals[name].decode()
    changes = [op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes() if op[0] != "equal"]
    assert changes and all(op[0] == "insert" for op in changes), [
        (op, old[op[1] : op[2]]) for op in changes if op[0] != "insert"
    ]


@then(parsers.parse('"{name}" without Cupcake\'s hooks holds the same settings as before'))
def same_settings_without_cupcake(terminal, name):
    before = json.loads(terminal.originals[name])
    assert _without_cupcake(_settings_json(terminal, name)) == _without_cupcake(before)


@then(parsers.parse('"{name}" is indented with {width:d} spaces'))
def indented_with_spaces(terminal, name, width):
    lines = terminal.file(name).read_text().splitlines()
    indents = [len(line) - len(line.lstrip(" ")) for line in lines]
    assert all(indent % width == 0 for indent in indents) and "\t" not in "".join(lines), lines
    assert max(indents) >= 5 * width, "Cupcake's entries are nested five levels deep"


@then(parsers.parse('"{name}" is indented with tabs'))
def indented_with_tabs(terminal, name):
    lines = terminal.file(name).read_text().splitlines()
    assert all(not line.startswith(" ") for line in lines), lines
    assert any(line.startswith("\t\t\t\t\t") for line in lines), lines


@then(parsers.parse('"{name}" is written on one line'))
def one_line(terminal, name):
    assert terminal.file(name).read_text().count("\n") == 1


@then(parsers.parse('"{name}" is the original'))
def is_original(terminal, name):
    original = terminal.originals.get(name.removesuffix(".bak"))
    assert terminal.file(name).read_bytes() == original


@then(parsers.parse('"{name}" is:'))
def file_is(terminal, name, docstring):
    assert terminal.file(name).read_text() == docstring + "\n"


@then(parsers.parse('"{name}" was not rewritten'))
def not_rewritten(terminal, name):
    assert terminal.stats_before[name] is not None, f"{name} did not exist before the last command"
    assert _stat(terminal.file(name)) == terminal.stats_before[name]


@then(parsers.parse('"{name}" does not exist'))
def does_not_exist(terminal, name):
    assert not os.path.lexists(terminal.file(name))


@then(parsers.parse('no temporary file is left in "{directory}"'))
def no_temporary_files(terminal, directory):
    names = sorted(os.listdir(terminal.file(directory)))
    assert all(not name.endswith(".tmp") for name in names), names


@then(parsers.parse('"{name}" is still a symlink'))
def still_symlink(terminal, name):
    assert terminal.file(name).is_symlink()


def _doctor_lines(run):
    return run.answer.stdout.decode().splitlines()


@then("the doctor finds no problem and no warning")
def doctor_all_ok(run):
    findings = [line for line in _doctor_lines(run)[1:-1] if not line.startswith(" ")]
    assert findings and all(line.startswith("ok ") for line in findings), run.answer


@then(parsers.parse('the doctor reports as ok "{text}"'))
def doctor_ok(run, text):
    assert any(line.startswith("ok ") and _expand(text) in line for line in _doctor_lines(run)), run.answer


@then(parsers.parse('the doctor warns "{text}"'))
def doctor_warns(run, text):
    lines = _doctor_lines(run)
    matching = [i for i, line in enumerate(lines) if line.startswith("warning ") and _expand(text) in line]
    assert matching, run.answer
    run.fix = lines[matching[0] + 1] if matching[0] + 1 < len(lines) else ""


@then(parsers.parse('the doctor reports the problem "{text}"'))
def doctor_problem(run, text):
    lines = _doctor_lines(run)
    matching = [i for i, line in enumerate(lines) if line.startswith("problem ") and _expand(text) in line]
    assert matching, run.answer
    run.fix = lines[matching[0] + 1] if matching[0] + 1 < len(lines) else ""


@then(parsers.parse('its fix says "{text}"'))
def fix_says(run, text):
    assert run.fix.lstrip().startswith("fix: ") and text in run.fix, run.fix


@then("the doctor reports the round trip's time in milliseconds")
def round_trip_time(run):
    import re

    line = next(line for line in _doctor_lines(run) if " round trip: " in line)
    assert re.search(r"\((\d+) ms\)$", line), line


@then(parsers.parse("the JSON output says ok is {value}"))
def json_ok(run, value):
    assert json.loads(run.answer.stdout)["ok"] is (value == "true")


@then(parsers.parse('the JSON output has a "{status}" finding from the "{check}" check'))
def json_finding(run, status, check):
    findings = json.loads(run.answer.stdout)["findings"]
    assert any(f["status"] == status and f["check"] == check and f["fix"] for f in findings), findings


@then(parsers.parse("the JSON output has the round trip's exit code {code:d}"))
def json_round_trip(run, code):
    assert json.loads(run.answer.stdout)["round_trip"]["runs"][0]["exit_code"] == code


# ## Evaluator feedback ##############################################################################


@then(parsers.parse("the cumulative list of repeated mistakes holds:"))
def mistakes_then(project, docstring):
    assert (project.root / MISTAKES).read_text() == docstring + "\n"


@then("there is no cumulative list of repeated mistakes")
def no_mistakes_list(project):
    assert not (project.root / MISTAKES).exists()


def _eval_record(run):
    from cupcake.evaluator_findings import EXT_KEY

    ctx = _answer(run).ctx
    assert ctx is not None, "the event was not sent in process"
    return ctx.ext.get(EXT_KEY)


@then(parsers.parse('Cupcake noted for the audit trail "{text}"'))
def noted_for_audit(run, text):
    record = _eval_record(run)
    assert record is not None and any(text in note for note in record["notes"]), record


@then("Cupcake did not read the evals")
def evals_not_read(run):
    assert _eval_record(run) is None


# ## The audit trail (audit_logging) ###############################################################


def _audit_log(project):
    return project.root / ".cupcake" / "audit.log"


def _audit_lines(project) -> list[bytes]:
    path = _audit_log(project)
    return path.read_bytes().splitlines() if path.exists() else []


def _last_record(project) -> dict:
    lines = _audit_lines(project)
    assert lines, "the audit log is empty or missing"
    return json.loads(lines[-1])


def _expected(value: str):
    """A table cell: JSON (control characters allowed: Gherkin turns "\\n" into a newline)."""
    return json.loads(value, strict=False)


def _stdout_lines(run) -> list[str]:
    return run.answer.stdout.decode().splitlines()


def _columns(line: str) -> str:
    """A table line with its padding collapsed to two spaces between cells."""
    import re

    return re.sub(r" {2,}", "  ", line.strip())


@given(parsers.parse("the audit log holds the runs:"))
def audit_log_holds(project, run, datatable):
    header, *rows = datatable
    for row in rows:
        cells = dict(zip(header, row))
        project.session_id = cells["session"]
        _send(project, run, project.tool_call("Bash", {"command": cells["command"]}))
    assert len(_audit_lines(project)) == len(rows)


@given(parsers.parse("an audit record written {hours:d} hours ago"))
def audit_record_hours_ago(project, run, monkeypatch, hours):
    import types

    import cupcake.stores.audit.record as record

    real = record.time
    past = types.SimpleNamespace(
        time=lambda: real.time() - hours * 3600, gmtime=real.gmtime, strftime=real.strftime, monotonic=real.monotonic
    )
    with monkeypatch.context() as patch:
        patch.setattr(record, "time", past)
        _send(project, run, project.tool_call("Bash", {"command": "rm -rf data"}))


@given("the audit log cannot be written")
def audit_log_unwritable(project):
    (project.root / ".cupcake" / "audit.log").mkdir(parents=True)  # a directory: open() fails, even for root


@given(parsers.parse('the audit log is a symbolic link to "{name}"'))
def audit_log_symlink(project, name):
    (project.root / ".cupcake").mkdir()
    os.symlink(project.root / name, _audit_log(project))


@when(parsers.parse("the agent runs {count:d} commands"))
def agent_runs_many(project, run, count):
    for i in range(1, count + 1):
        _send(project, run, project.tool_call("Bash", {"command": f"echo {i}"}))


@when(parsers.parse('{count:d} tool calls "{command}" run at the same time'))
def parallel_calls(project, run, count, command):
    """Separate `cupcake run` processes, as Claude Code starts them for parallel tool calls (the policy
    cache built first, as the session's first call leaves it)."""
    from concurrent.futures import ThreadPoolExecutor

    from cupcake.policy.loader import load

    assert load(str(project.root), project.env(), use_cache=False).compiled["out_of_service"] is None
    payload = project.tool_call("Bash", {"command": command})
    # the installed executable builds the cache, as a first call would (one that matches nothing: no audit line)
    warm = project.send_process(project.tool_call("Bash", {"command": "true"}))
    assert warm.code == 0 and warm.stdout == b"", warm
    with ThreadPoolExecutor(max_workers=count) as pool:
        answers = list(pool.map(lambda _i: project.send_process(payload, timeout=120), range(count)))
    for answer in answers:
        assert answer.code == 0 and answer.specific.get("permissionDecision") == "deny", answer
    run.answer = answers[-1]


@when(parsers.parse('someone edits line {number:d} of the audit log, replacing "{old}" with "{new}"'))
def edit_audit_line(project, number, old, new):
    lines = _audit_lines(project)
    assert old.encode() in lines[number - 1]
    lines[number - 1] = lines[number - 1].replace(f'"{old}"'.encode(), f'"{new}"'.encode())
    _audit_log(project).write_bytes(b"\n".join(lines) + b"\n")


@when(parsers.parse("someone removes line {number:d} of the audit log"))
def remove_audit_line(project, number):
    lines = _audit_lines(project)
    del lines[number - 1]
    _audit_log(project).write_bytes(b"\n".join(lines) + b"\n")


@pytest.fixture
def follower(project):
    """`cupcake audit --follow` as its own process; stopped at the end of the scenario."""
    holder = {}
    yield holder
    proc = holder.get("proc")
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait()


def _read_line(proc, timeout: float) -> str:
    import select

    ready, _w, _x = select.select([proc.stdout], [], [], timeout)
    assert ready, f"the follower printed nothing within {timeout} s"
    return proc.stdout.readline().decode()


@when("the person follows the audit trail")
def follow_trail(project, follower):
    proc = subprocess.Popen(
        [cupcake_executable(), "audit", "--follow"],
        cwd=project.cwd,
        env=project.env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    )
    follower["proc"] = proc
    assert _read_line(proc, 20).startswith("TIME (UTC)")
    follower["history"] = _read_line(proc, 20)


@when("the person presses Ctrl-C")
def press_ctrl_c(follower):
    import signal

    follower["proc"].send_signal(signal.SIGINT)


@then(parsers.parse('the follower prints a row with "{text}"'))
def follower_prints(follower, text):
    line = _read_line(follower["proc"], 20)
    assert _columns(text) in _columns(line), line


@then(parsers.parse("the follower ends with exit code {code:d} and no stack trace"))
def follower_ends(follower, code):
    proc = follower["proc"]
    assert proc.wait(timeout=20) == code
    err = proc.stderr.read().decode()
    assert "Traceback" not in err and "Aborted" not in err, err


@then(parsers.re(r"the audit log has (?P<count>\d+) lines?"))
def audit_line_count(project, count):
    assert len(_audit_lines(project)) == int(count), _audit_lines(project)


@then("there is no audit log")
def no_audit_log(project):
    assert not _audit_log(project).exists()


@then(parsers.parse("the last audit record says:"))
def last_record_says(project, datatable):
    record = _last_record(project)
    for field, value in datatable[1:]:
        assert record.get(field) == _expected(value), (field, record.get(field))


@then("the last audit record was written just now, in UTC")
def record_time(project):
    import calendar
    import re

    stamp = _last_record(project)["time"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", stamp), stamp
    written = calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%dT%H:%M:%S"))
    assert abs(time.time() - written) < 60, stamp


@then("the last audit record took a number of milliseconds")
def record_duration(project):
    ms = _last_record(project)["ms"]
    assert isinstance(ms, (int, float)) and 0 < ms < 60_000, ms


@then(parsers.parse('the last audit record names the failure "{text}"'))
def record_failure(project, text):
    failures = _last_record(project)["failures"]
    assert any(text.replace('\\"', '"') in f["message"] and f["decides"] for f in failures), failures


@then(parsers.parse('the last audit record\'s input is the path of "{path}"'))
def record_input_path(project, path):
    assert _last_record(project)["input"] == {"file_path": str(project.cwd / path)}


@then(parsers.parse('the last audit record\'s command is "{command}"'))
def record_command(project, command):
    assert _last_record(project)["input"]["command"] == command


@then(parsers.parse('the last audit record ran the command "{command}" with exit code {code:d}'))
def record_ran_command(project, command, code):
    commands = _last_record(project)["commands"]
    assert [(c["command"], c["exit_code"], c["ok"]) for c in commands] == [(command, code, code == 0)], commands
    assert isinstance(commands[0]["ms"], (int, float)) and commands[0]["ms"] >= 0, commands


@then(parsers.parse('the audit log does not contain "{text}"'))
def log_lacks(project, text):
    data = _audit_log(project).read_bytes()
    assert data, "the audit log is empty"
    assert text.encode() not in data


@then("the audit log can be read and written by its owner only")
def log_private(project):
    import stat

    assert stat.S_IMODE(_audit_log(project).stat().st_mode) == 0o600


@then("every line of the audit log is a whole JSON record")
def whole_lines(project):
    for line in _audit_lines(project):
        record = json.loads(line)
        assert record["v"] == 1 and record["decision"] == "block", record


@then(parsers.parse("the audit records are numbered {first:d} to {last:d}"))
def records_numbered(project, first, last):
    assert [json.loads(line)["seq"] for line in _audit_lines(project)] == list(range(first, last + 1))


@then(parsers.parse('the audit log was rotated into "{name}"'))
def rotated_into(project, name):
    assert (project.root / ".cupcake" / name).is_file()


@then(parsers.parse("every audit file is at most {size:d} bytes"))
def audit_files_size(project, size):
    files = list((project.root / ".cupcake").glob("audit.log*"))
    assert len(files) > 1 and all(f.stat().st_size <= size for f in files), [(f.name, f.stat().st_size) for f in files]


@then(parsers.parse('the audit files are "{names}"'))
def audit_files(project, names):
    found = sorted(f.name for f in (project.root / ".cupcake").glob("audit.log*"))
    assert found == sorted(n.strip() for n in names.split(",")), found


@then(parsers.re(r"the output lists (?P<count>\d+) records?"))
def output_lists(run, count):
    lines = _stdout_lines(run)
    assert len(lines) == int(count), run.answer


@then(parsers.parse("the output lists the records numbered {first:d} to {last:d}"))
def output_numbered(run, first, last):
    assert [json.loads(line)["seq"] for line in _stdout_lines(run)] == list(range(first, last + 1))


@then(parsers.parse("every record listed has {field} {value}"))
def every_record_has(run, field, value):
    for line in _stdout_lines(run):
        got = json.loads(line).get(field)
        if value.startswith("one of "):
            assert got in json.loads(f"[{value[7:]}]"), got
        elif value.startswith("containing "):
            assert json.loads(value[11:]) in got, got
        else:
            assert got == json.loads(value), got


@then(parsers.parse('the error says "{text}"'))
def error_says(run, text):
    assert text in run.answer.stderr.decode(), run.answer


@then(parsers.parse('the output has the columns "{header}"'))
def output_columns(run, header):
    assert _columns(_stdout_lines(run)[0]) == header, run.answer.text


@then(parsers.parse('the output has a row with "{text}"'))
def output_row(run, text):
    assert any(text in _columns(line) for line in _stdout_lines(run)), run.answer.text


@then(parsers.parse('the last audit record notes "{text}"'))
def last_record_notes(project, text):
    """Notes kept for the audit trail only (``notes`` by namespace), never shown to the agent."""
    record = _last_record(project)
    assert any(text in note for notes in record["notes"].values() for note in notes), record


# ## cupcake init ###################################################################################
# Files are written with `the file "…":`, commands run with `the user runs "cupcake …"`, and output
# is read with `the output says …` (above). $STANDIN in a command line is the stand-in agent.

STANDIN_AGENT = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "standin_agent.py")


@pytest.fixture
def standin(tmp_path):
    """The stand-in agent's script directory: what it writes at each attempt, and the prompts it got."""
    directory = tmp_path / "standin"
    directory.mkdir()
    return directory


def standin_command(standin) -> str:
    return shlex.join([os.path.realpath(sys.executable), STANDIN_AGENT, str(standin)])


@given(parsers.parse('the project is a git repository that ignores "{pattern}"'))
def git_repository(project, pattern):
    subprocess.run(["git", "init", "-q", str(project.root)], check=True, timeout=30)
    (project.root / ".gitignore").write_text(pattern + "\n")


@given(parsers.parse('a virtualenv in "{path}" holding a CLAUDE.md'))
def virtualenv_with_memory(project, path):
    venv = project.root / path
    venv.mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (venv / "CLAUDE.md").write_text("A virtualenv's file.\n")


@given(parsers.re(r"a chain of imports (?P<chain>.+)"))
def chain_of_imports(project, chain):
    """Each file imports the next one, by a path relative to itself."""
    names = [part.strip().strip('"') for part in chain.split("→")]
    for index, name in enumerate(names):
        following = names[index + 1] if index + 1 < len(names) else None
        target = project.root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        text = f"Level {index + 1}" + (
            f": @{os.path.relpath(project.root / following, target.parent)}" if following else ""
        )
        target.write_text(text + "\n")


@given(parsers.re(r"the stand-in agent writes (?P<user>into the user file )?at attempt (?P<attempt>\d+):"))
def standin_writes(standin, user, attempt, docstring):
    (standin / f"{'user' if user else 'project'}-{attempt}.toml").write_text(docstring + "\n")


@given(parsers.parse('the stand-in agent fails with "{message}"'))
def standin_fails(standin, message):
    (standin / "fail-1").write_text(message)


@given("no agent is installed")
def no_agent(terminal):
    """PATH holds only an empty directory: no `claude` there."""
    terminal.path_mode = "empty"


@when(parsers.parse('the user edits "{name}" to hold:'))
def user_edits(terminal, name, docstring):
    terminal.file(name).write_text(docstring + "\n")


@then(parsers.parse("the files found are:"))
def files_found(run, datatable):
    """The rows of `cupcake init --list` (files above the test's own directory are left out)."""
    lines = run.answer.stdout.decode().splitlines()
    start = lines.index("Rules found, in the order the agent reads them:") + 1
    rows = []
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        scope, rest = line.split(None, 1)
        shown, found = [part.strip() for part in rest.split("  ", 1)]
        if shown.startswith("/") or shown.startswith("../../"):
            continue
        rows.append([scope, shown, found])
    assert rows == datatable[1:], run.answer


@then(parsers.parse("the output says:"))
def output_says_block(run, docstring):
    assert docstring in run.answer.text, run.answer


@then(parsers.re(r"the stand-in agent ran (?P<count>\d+) times?"))
def standin_ran(standin, count):
    assert len(list(standin.glob("prompt-*.md"))) == int(count)


def _prompt(standin, number: int) -> str:
    return (standin / f"prompt-{number}.md").read_text()


@then(parsers.parse("the stand-in agent's prompt {number:d} included:"))
def standin_prompt_block(standin, number, docstring):
    assert docstring in _prompt(standin, number), _prompt(standin, number)[-3000:]


@then(parsers.parse('the stand-in agent\'s prompt {number:d} included "{text}"'))
def standin_prompt_included(standin, number, text):
    assert text in _prompt(standin, number), _prompt(standin, number)[-3000:]


@then(
    parsers.re(
        r'"(?P<name>[^"]+)" holds what the stand-in agent wrote (?P<user>into the user file )?at attempt (?P<attempt>\d+)'
    )
)
def holds_what_standin_wrote(terminal, standin, name, user, attempt):
    wrote = (standin / f"{'user' if user else 'project'}-{attempt}.toml").read_text()
    assert terminal.file(name).read_text() == wrote


@then(parsers.parse('"{name}" is the commented starter'))
def is_starter(terminal, name):
    from cupcake.translate.prompt import template

    assert terminal.file(name).read_text() == template("starter.cupcake.toml")


def _load(terminal, name: str, text: str | None = None):
    from cupcake.policy.compiler import compile_files

    target = terminal.file(name)
    if text is not None:
        target.write_text(text)
    return compile_files([str(target)], str(terminal.project.root), terminal.project.env())


@then(parsers.re(r'the policy file "(?P<name>[^"]+)" loads with (?P<count>\d+) polic(y|ies)'))
def policy_file_loads(terminal, name, count):
    compiled = _load(terminal, name)
    assert compiled["problems"] == [] and len(compiled["policies"]) == int(count), compiled


@then(parsers.re(r'with every example uncommented, "(?P<name>[^"]+)" loads with (?P<count>\d+) policies'))
def uncommented_loads(terminal, name, count):
    text = terminal.file(name).read_text()
    uncommented = "\n".join(line[2:] if line.startswith("# ") else line for line in text.splitlines())
    compiled = _load(terminal, name, uncommented)
    assert compiled["problems"] == [] and len(compiled["policies"]) == int(count), compiled


# ## Session state #################################################################################


def _state_dir(project):
    return project.root / ".cupcake" / "state"


def _log_path(project, session_id=None):
    from cupcake.stores.state.names import state_name

    return _state_dir(project) / f"{state_name(session_id or project.session_id)}.json"


def _with_dirs(project, text: str) -> str:
    return text.replace("$PROJECT", str(project.root)).replace("$HOME", str(project.home))


def _log_entries(project) -> list:
    path = _log_path(project)
    assert path.exists(), f"no session log at {path}"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _age(path, days: float) -> None:
    then = time.time() - days * 86400
    os.utime(path, (then, then))


@given(parsers.parse("the session id is {literal}"))
def session_id_is(project, literal):
    """A JSON string literal ($HOME expanded), or `a string of <n> "<c>"`."""
    if literal.startswith("a string of "):
        count, char = literal[len("a string of ") :].split(" ", 1)
        project.session_id = json.loads(char) * int(count)
    else:
        project.session_id = json.loads(_with_dirs(project, literal))


@given("the events carry no session_id")
def no_session_id(project):
    project.session_id = None


@given(parsers.parse("the session log holds:"))
def session_log_holds(project, docstring):
    path = _log_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_with_dirs(project, docstring) + "\n")


@given("the session log ends in a line cut short")
def session_log_cut_short(project):
    path = _log_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"timestamp": "2026-01-10T10:00:00.000Z", "tool": "Bash", "success": true, "input": {"comm')


@given(parsers.parse('the session log holds {count:d} failed runs of "{command}" from {minutes:d} minutes ago'))
def session_log_old_failures(project, count, command, minutes):
    from cupcake.stores.state.timestamps import iso_timestamp

    path = _log_path(project)
    path.parent.mkdir(parents=True, exist_ok=True)
    stamp = iso_timestamp(time.time() - minutes * 60)
    entry = {"timestamp": stamp, "tool": "Bash", "success": False, "input": {"command": command}}
    path.write_text("".join(json.dumps(entry) + "\n" for _ in range(count)))


@given(parsers.parse('the state of the session "{session_id}" was last touched {days:d} days ago'))
def old_session_state(project, session_id, days):
    log = _log_path(project, session_id)
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text('{"timestamp": "2026-01-10T10:00:00.000Z", "tool": "Read", "success": true, "input": {}}\n')
    index = log.with_suffix(".idx")
    index.write_bytes(b"not a summary")
    for path in (log, index):
        _age(path, days)


@given(parsers.parse('the file "{relative}" was last touched {days:d} days ago'))
def old_file(project, relative, days):
    path = project.root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{}\n")
    _age(path, days)


@given(".cupcake/state is a link to a directory outside the project")
def state_dir_is_a_link(project):
    outside = project.home / "outside"
    outside.mkdir()
    (project.root / ".cupcake").mkdir(exist_ok=True)
    os.symlink(outside, _state_dir(project))


def _report(project, run, tool, tool_input, failed=False, session_id=None):
    event = "PostToolUseFailure" if failed else "PostToolUse"
    payload = project.tool_call(tool, tool_input, event=event)
    if session_id is not None:
        payload["session_id"] = session_id
    if failed:
        payload.update(error="Exit code 1" if tool == "Bash" else "File does not exist.", is_interrupt=False)
    else:
        payload["tool_response"] = {"type": "text", "file": {"filePath": tool_input.get("file_path", "")}}
    return _send(project, run, payload)


@when(parsers.re(r'Claude Code reports that the agent read "(?P<path>[^"]+)"(?P<other> in another session)?'))
def reports_read(project, run, path, other):
    _report(
        project, run, "Read", {"file_path": str(project.cwd / path)}, session_id="another-session" if other else None
    )


@when(parsers.parse('Claude Code reports that reading "{path}" failed'))
def reports_read_failed(project, run, path):
    _report(project, run, "Read", {"file_path": str(project.cwd / path)}, failed=True)


@when(parsers.parse('Claude Code reports that "{command}" failed'))
def reports_command_failed(project, run, command):
    _report(project, run, "Bash", {"command": command, "description": "run"}, failed=True)


@when(parsers.parse('the session ends with the reason "{reason}"'))
def session_ends(project, run, reason):
    _send(project, run, project.payload("SessionEnd", reason=reason))


@when(parsers.parse("Claude Code reports {count:d} Bash commands at once"))
def reports_many_at_once(project, run, count):
    """As many `cupcake run` processes as commands, all started before any is waited for."""
    # the policy cache, built by the installed executable, as in a session under way
    project.send_process(project.tool_call("Bash", {"command": "ls"}))
    procs = []
    for i in range(count):
        command = f"echo {i:03d} " + "x" * 3000  # long lines: a torn write would show
        payload = project.tool_call("Bash", {"command": command, "description": "run"}, event="PostToolUse")
        payload["tool_response"] = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}
        proc = subprocess.Popen(
            [cupcake_executable(), "run", "--event", "PostToolUse"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=project.cwd,
            env=project.env(),
        )
        procs.append((proc, json.dumps(payload).encode()))
    for proc, data in procs:
        proc.stdin.write(data)
        proc.stdin.close()
    for proc, _data in procs:
        out, err = proc.stdout.read(), proc.stderr.read()
        assert proc.wait(timeout=60) == 0 and out == b"" and err == b"", (out, err)
    run.answer = Answer(b"", b"", 0)


@then("the tool call is not denied")
def not_denied(run):
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") != "deny", answer


@then(parsers.parse("the session log's last entry is:"))
def last_entry(project, docstring):
    entry = _log_entries(project)[-1]
    stamp = entry.pop("timestamp", None)
    assert isinstance(stamp, str) and stamp.endswith("Z"), entry
    assert abs(time.time() - _epoch(stamp)) < 60, stamp
    assert entry == json.loads(_with_dirs(project, docstring))


def _epoch(stamp: str) -> float:
    from cupcake.stores.state.timestamps import parse_timestamp

    found = parse_timestamp(stamp)
    assert found is not None, stamp
    return found


@then(parsers.parse('no custom event "{event}" was recorded'))
def no_custom_event(project, event):
    path = _log_path(project)
    entries = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    assert not [e for e in entries if e.get("event") == event], entries


@then(parsers.re(r"the session's state is (?P<outcome>removed|kept)"))
def session_state_outcome(project, outcome):
    assert _log_path(project).exists() == (outcome == "kept")
    if outcome == "removed":
        assert not _log_path(project).with_suffix(".idx").exists()


@then(parsers.re(r'the state of the session "(?P<session_id>[^"]+)" is (?P<outcome>removed|kept)'))
def other_session_outcome(project, session_id, outcome):
    for path in (_log_path(project, session_id), _log_path(project, session_id).with_suffix(".idx")):
        assert path.exists() == (outcome == "kept"), path


@then(parsers.parse('the file "{relative}" is kept'))
def file_kept(project, relative):
    assert (project.root / relative).exists()


@then("the directory outside the project is still empty")
def outside_empty(project):
    assert list((project.home / "outside").iterdir()) == []


@then("every file Cupcake wrote is directly inside .cupcake/state, besides the policy cache")
def files_only_in_state(project):
    allowed = {project.root / "cupcake.toml", project.root / ".cupcake" / "policy.cache"}
    state = _state_dir(project)
    found = []
    for base in (project.root.parent,):
        for dirpath, _dirs, files in os.walk(base):
            for name in files:
                path = type(project.root)(dirpath) / name
                if path in allowed or path.parent == state:
                    continue
                found.append(str(path))
    assert not found, found
    assert _log_path(project).exists()


@then(parsers.parse("the session log holds {count:d} whole entries, one for each command"))
def log_holds_all(project, count):
    raw = _log_path(project).read_bytes()
    assert raw.endswith(b"\n")
    lines = raw.split(b"\n")[:-1]
    assert len(lines) == count, len(lines)
    commands = sorted(json.loads(line)["input"]["command"] for line in lines)
    assert commands == sorted(f"echo {i:03d} " + "x" * 3000 for i in range(count))


# ## Every agent: the same policies through each agent's own hook (features/agent_*.feature) ########

_AGENT = r"(?P<agent>claude|codex|gemini|copilot|droid|cursor)"


def _wire(project, agent):
    from tests.agents.test_one_policy import Wire

    return Wire(project, agent)


@given(parsers.re(rf"an? {_AGENT} user's project with the policy:"))
def agent_project_policy(project, run, agent, docstring):
    """The project's cupcake.toml, for a team whose members use that agent (cupcake sync --agent NAME)."""
    project.write_policy(docstring)
    run.agent = agent


@when(parsers.re(rf'the {_AGENT} agent asks to run "(?P<command>[^"]*)"'))
def agent_asks_to_run(project, run, agent, command):
    """The agent's before-tool event for its own shell tool (run_shell_command, bash, Execute, Shell…)."""
    w = _wire(project, agent)
    run.agent = agent
    run.answer = w.send(w.shell(command))


@when(parsers.re(rf'the {_AGENT} agent asks to write "(?P<path>[^"]*)"'))
def agent_asks_to_write(project, run, agent, path):
    """The agent's before-tool event for its own file-writing tool (apply_patch, write_file, create…)."""
    w = _wire(project, agent)
    run.agent = agent
    run.answer = w.send(w.write(path, "changed\n"))


@when(parsers.re(rf'the {_AGENT} agent has run "(?P<command>[^"]*)"'))
def agent_has_run(project, run, agent, command):
    """The agent's after-tool event for its shell tool: the command already ran."""
    w = _wire(project, agent)
    run.agent = agent
    run.answer = w.send(w.shell(command, event="PostToolUse", tool_response="ok"), "PostToolUse")


@then(parsers.parse('the call is blocked and the model is shown "{text}"'))
def agent_blocked_with(run, text):
    """Blocked in that agent's own answer format, with the text where the agent passes it to the model."""
    from tests.agents.test_one_policy import blocked, shown

    assert blocked(run.answer, run.agent), run.answer
    assert text in shown(run.answer, run.agent), run.answer


@then("the call goes ahead")
def agent_call_goes_ahead(run):
    """Nothing to object to: the agent is told nothing and its own permission flow applies."""
    from tests.agents.test_one_policy import blocked

    assert not blocked(run.answer, run.agent) and run.answer.stdout == b"", run.answer


@then(parsers.parse('the project file "{path}" holds "{text}"'))
def project_file_holds(project, path, text):
    """A file a policy's command wrote in the project."""
    assert text in (project.root / path).read_text()


# ## Commands, rule packs, testing policies (issue 17) ##############################################


@when(parsers.parse("the agent asks to run:"))
def agent_runs_lines(project, run, docstring):
    """A Bash command of several lines (a here-document), given as a docstring."""
    _send(project, run, project.tool_call("Bash", {"command": docstring, "description": "run it"}))


@then(parsers.parse('the tool call is denied by the policy "{name}"'))
def denied_by_policy(project, run, name):
    """Denied, with the reason of the named policy: a built-in rule's reason ends with its id in
    brackets; a project policy's holds its feedback message (read from cupcake.toml)."""
    import tomli

    from cupcake.policy import packs

    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "deny", answer
    reason = answer.specific["permissionDecisionReason"]
    if name in packs.all_rules():
        assert reason.endswith(f"[{name}]"), reason
        return
    table = tomli.loads((project.root / "cupcake.toml").read_text())
    policy = next(p for p in table["policy"] if p["name"] == name)
    assert policy["action"]["feedback_message"] in reason, reason


@then(parsers.parse('the denial says "{text}"'))
def denial_says(run, text):
    """The reason the agent is given for the denial contains ``text``."""
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "deny", answer
    assert text in answer.specific["permissionDecisionReason"], answer


@then(parsers.parse('the JSON output lists the pack "{name}" with the rule "{rule}"'))
def json_lists_pack(run, name, rule):
    """``cupcake packs --json``: a list of {name, description, rules}, the rule among the pack's."""
    packs = json.loads(run.answer.stdout)
    pack = next(p for p in packs if p["name"] == name)
    assert pack["description"]
    assert rule in [r["id"] for r in pack["rules"]]


@given(parsers.parse('a Claude Code transcript "{name}" with the Bash commands:'))
def transcript_with_commands(project, name, datatable):
    """A transcript ``.jsonl`` in the project: one assistant line with a Bash ``tool_use`` per row."""
    _header, *rows = datatable
    lines = []
    for n, (command,) in enumerate(rows):
        content = [{"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": command}}]
        lines.append(
            json.dumps(
                {
                    "type": "assistant",
                    "timestamp": f"2026-01-0{1 + n % 9}T10:00:00.000Z",
                    "cwd": str(project.root),
                    "message": {"role": "assistant", "content": content},
                }
            )
        )
    (project.root / name).write_text("\n".join(lines) + "\n")
