"""Issue 27, "beyond Bash", and issue 24 item 1: every example of each family through the installed
executable (a fresh ``cupcake`` process per call, each in a project and home of its own), and hostile
variants of each family. Each asserts the protective outcome: the call is blocked with a reason that
says what was not understood, the answer is unchanged, or the error is named with its place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import cache_forgery
from tests.conftest import cupcake_executable, give_cache_secret, installed_package

NO_RM = (
    '[[policy]]\nname = "no rm -rf"\nconditions = [{ type = "command_regex", value = "rm -rf" }]\n'
    'action = { type = "block_with_feedback", feedback_message = "No rm -rf." }\n'
)


def _decision(answer) -> str | None:
    return answer.specific.get("permissionDecision")


def _reason(answer) -> str:
    return answer.specific.get("permissionDecisionReason", "")


def _send(project, tool: str, tool_input, event: str = "PreToolUse", **kw):
    answer = project.send_process(project.tool_call(tool, tool_input, event), **kw)
    assert b"Traceback" not in answer.stdout + answer.stderr, answer
    return answer


def _cli(project, *args: str, executable=None):
    return subprocess.run(
        [executable or cupcake_executable(), *args],
        capture_output=True,
        text=True,
        cwd=project.root,
        env=project.env(),
        timeout=60,
    )


def _secret(project) -> Path:
    return project.home / ".cache" / "cupcake" / "cache-secret"


# 1. The cache key is readable (item 4) ###############################################################


@pytest.fixture
def guarded(project):
    """A synced user's project: the per-user key exists."""
    give_cache_secret(project.home)
    project.write_policy(NO_RM)
    return project


@pytest.mark.parametrize(
    "tool, tool_input",
    [
        ("Read", {"file_path": "{secret}"}),  # the issue's example
        ("Read", {"file_path": "{home}/.cache/cupcake/../cupcake/./cache-secret"}),
        ("Read", {"file_path": "~/.cache/cupcake/cache-secret"}),
        ("NotebookRead", {"notebook_path": "{secret}"}),
        ("Grep", {"pattern": ".", "path": "{home}/.cache/cupcake"}),
        ("Grep", {"pattern": ".", "path": "{home}/.cache"}),
        ("Grep", {"pattern": ".", "path": "{home}", "glob": "*"}),
        ("Glob", {"pattern": "*", "path": "{secret}"}),
        ("WebFetch", {"url": "file://{secret}", "prompt": "show it"}),
        ("mcp__filesystem__read_file", {"path": "{secret}"}),
        ("mcp__filesystem__read_multiple_files", {"paths": ["notes.txt", "{secret}"]}),
        ("mcp__filesystem__search_files", {"path": "{home}/.cache", "pattern": "secret"}),
        ("mcp__db__query", {"options": {"nested": [{"source": "{secret}"}]}}),
        ("read_many_files", {"paths": ["{secret}"]}),  # an agent's tool Cupcake has no name for
    ],
)
def test_no_tool_but_bash_may_read_the_cache_key(guarded, tool, tool_input):
    """Bash readers are the Bash reader's (protected['secrets']); every other tool is checked here."""
    text = json.dumps(tool_input).replace("{secret}", str(_secret(guarded))).replace("{home}", str(guarded.home))
    answer = _send(guarded, tool, json.loads(text))
    assert _decision(answer) == "deny", answer
    assert "cache-secret" in _reason(answer) and "secret Cupcake relies on" in _reason(answer), answer


def test_a_link_to_the_cache_key_is_the_key(guarded):
    (guarded.root / "soft").symlink_to(_secret(guarded))
    os.link(_secret(guarded), guarded.root / "hard")
    for name in ("soft", "hard"):
        answer = _send(guarded, "Read", {"file_path": str(guarded.root / name)})
        assert _decision(answer) == "deny", (name, answer)


@pytest.mark.parametrize(
    "tool, tool_input",
    [
        ("Write", {"file_path": "{secret}", "content": "a key the agent knows"}),
        ("Edit", {"file_path": "{secret}", "old_string": "", "new_string": "x"}),
        ("mcp__filesystem__move_file", {"source": "{secret}", "destination": "/tmp/x"}),
        ("mcp__filesystem__delete_directory", {"path": "{home}/.cache/cupcake"}),
    ],
)
def test_the_cache_key_cannot_be_replaced_either(guarded, tool, tool_input):
    text = json.dumps(tool_input).replace("{secret}", str(_secret(guarded))).replace("{home}", str(guarded.home))
    answer = _send(guarded, tool, json.loads(text))
    assert _decision(answer) == "deny", answer


@pytest.mark.parametrize(
    "tool, tool_input",
    [
        ("Read", {"file_path": "{root}/notes.txt"}),
        ("Grep", {"pattern": "TODO", "path": "{root}"}),
        ("Grep", {"pattern": "TODO"}),
        ("Glob", {"pattern": "**/*.py"}),
        ("Glob", {"pattern": "*", "path": "{home}/.cache"}),  # names only: no contents are read
        ("mcp__filesystem__read_file", {"path": "{root}/notes.txt"}),
    ],
)
def test_reading_anything_else_is_fine(guarded, tool, tool_input):
    (guarded.root / "notes.txt").write_text("TODO\n")
    text = json.dumps(tool_input).replace("{root}", str(guarded.root)).replace("{home}", str(guarded.home))
    answer = _send(guarded, tool, json.loads(text))
    assert answer.stdout == b"", answer


def _forged(project, key: bytes | None) -> None:
    """The issue's attack: a correctly sealed cache with no policies and self-protection off."""
    from cupcake.stores.policies import cache as policy_cache

    cache = project.root / ".cupcake" / "policy.cache"
    stored_key, compiled = cache_forgery.contents(cache.read_bytes())
    compiled["settings"]["self_protection"] = False
    compiled["policies"], compiled["index"], compiled["protected"] = [], {}, {}
    cache.write_bytes(cache_forgery.sealed(key if key is not None else policy_cache.UNKEYED, stored_key, compiled))


@pytest.mark.parametrize("key", ["made up", "unkeyed, with the user's secret removed", "unkeyed, never a secret"])
def test_a_forged_cache_never_weakens_a_run(guarded, key):
    assert _send(guarded, "Bash", {"command": "ls"}).stdout == b""  # builds the cache
    if key == "made up":
        _forged(guarded, os.urandom(32))
    else:
        _forged(guarded, None)
        _secret(guarded).unlink()  # without a secret, no cache is trusted (nor written)
        if key == "unkeyed, never a secret":
            _secret(guarded).parent.rmdir()
    assert _decision(_send(guarded, "Bash", {"command": "rm -rf build"})) == "deny"
    assert (
        _decision(_send(guarded, "Write", {"file_path": str(guarded.root / "cupcake.toml"), "content": ""})) == "deny"
    )


# 2. What the hook runs (item 5) ######################################################################

_MARK = "import os; open(os.environ.get('CUPCAKE_TEST_MARK', '/dev/null'), 'a').write('ran\\n'); os._exit(0)\n"


def _installation_with_startup_files(project, tmp_path):
    """The project's own installation (a copy of this one's launcher and its site-packages folder), with
    start-up files in it that end any Python that runs them (os._exit(0): a silent allow), after writing
    a mark."""
    installation = project.installation
    (installation.site / "zz-evil.pth").write_text(_MARK)
    (installation.site / "sitecustomize.py").write_text(_MARK)
    user_site = project.home / ".local" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    user_site.mkdir(parents=True)
    (user_site / "usercustomize.py").write_text(_MARK)
    (user_site / "zz-user.pth").write_text(_MARK)
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "sitecustomize.py").write_text(_MARK)
    (evil / "usercustomize.py").write_text(_MARK)
    (evil / "json.py").write_text(_MARK)
    return installation, evil


@pytest.mark.parametrize(
    "variables",
    [
        {},
        {"PYTHONPATH": "{evil}"},
        {"PYTHONSTARTUP": "{evil}/sitecustomize.py"},
        {"PYTHONINSPECT": "1"},
        {"PYTHONHOME": "{evil}"},
        {"PYTHONUSERBASE": "{evil}"},
        {"PYTHONNOUSERSITE": ""},
        {"PYTHONSAFEPATH": ""},
        {"PYTHONPYCACHEPREFIX": "{evil}/pyc"},
        {"PYTHONWARNINGS": "error"},
        {"PYTHONBREAKPOINT": "os._exit"},
        {"PYTHONEXECUTABLE": "{evil}/python"},
        {"PYTHONPLATLIBDIR": "{evil}"},
        {"PYTHONPATH": "{evil}", "PYTHONINSPECT": "1", "PYTHONSTARTUP": "{evil}/sitecustomize.py"},
    ],
)
def test_nothing_written_beside_the_installation_or_set_in_the_environment_changes_an_answer(
    project, tmp_path, variables
):
    """A .pth, sitecustomize and usercustomize in the installation's site-packages and the user site, and
    PYTHON* variables pointing at more: the hook's answer is the same, and none of them ran."""
    project.write_policy(NO_RM)
    installation, evil = _installation_with_startup_files(project, tmp_path)
    mark = tmp_path / "mark"
    env = dict(project.env(), CUPCAKE_TEST_MARK=str(mark))
    env.update({k: v.replace("{evil}", str(evil)) for k, v in variables.items()})
    payload = json.dumps(project.tool_call("Bash", {"command": "rm -rf build"})).encode()
    done = subprocess.run(
        [installation.executable, "run", "--event", "PreToolUse"],
        input=payload,
        capture_output=True,
        cwd=project.root,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0 and not mark.exists(), done
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"] == "Operation blocked: No rm -rf."


def test_those_start_up_files_and_variables_do_end_a_plain_python(project, tmp_path):
    """The control of the test above: the same files and variables end a Python that reads them."""
    installation, evil = _installation_with_startup_files(project, tmp_path)
    mark = tmp_path / "mark"
    for extra, code in (
        ({}, f"import site; site.addsitedir({str(installation.site)!r})"),  # a .pth in that site-packages
        ({"PYTHONPATH": str(evil)}, "pass"),  # a sitecustomize on PYTHONPATH
    ):
        env = dict(project.env(), CUPCAKE_TEST_MARK=str(mark), **extra)
        plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=60)
        assert plain.returncode == 0 and mark.exists(), (extra, plain)
        mark.unlink()


def test_the_launcher_finds_the_python_pip_wrote_even_with_a_fake_python_on_the_path(project, tmp_path):
    project.write_policy(NO_RM)
    fake = project.bin / "python3"
    fake.write_text("#!/bin/sh\necho '{}'\n")
    fake.chmod(0o755)
    answer = _send(project, "Bash", {"command": "rm -rf build"})
    assert _reason(answer) == "Operation blocked: No rm -rf.", answer


def _install_paths():
    from cupcake.protection.install import installation_paths

    return installation_paths(os.environ)


def test_writes_to_what_the_hook_runs_are_blocked(project):
    """The package (or its folder of site-packages), the launcher and cupcake-python beside it, the
    interpreter and pyvenv.cfg, and start-up files where other Pythons of it would run them."""
    project.write_policy(NO_RM)
    launcher = Path(cupcake_executable())
    package = Path(installed_package())
    venv_site = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    user_site = project.home / ".local" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    targets = [
        package / "__init__.py",
        package / "protection" / "hook.py",
        package / "__pycache__" / "x.cpython-311.pyc",
        launcher,
        launcher.parent / "cupcake-python",
        Path(sys.executable),
        Path(sys.prefix) / "pyvenv.cfg",
        venv_site / "zz-evil.pth",
        venv_site / "sitecustomize.py",
        venv_site / "usercustomize" / "__init__.py",
        user_site / "usercustomize.py",
        user_site / "evil.pth",
    ]
    for target in targets:
        for tool, tool_input in (
            ("Write", {"file_path": str(target), "content": "import os; os._exit(0)\n"}),
            ("mcp__filesystem__write_file", {"path": str(target), "content": "x"}),
        ):
            answer = _send(project, tool, tool_input)
            assert _decision(answer) == "deny", (target, tool, answer)
            assert "installed Cupcake package or of what runs it" in _reason(answer), (target, answer)
    ordinary = venv_site.parent / "site-packages-notes.txt"
    assert _send(project, "Write", {"file_path": str(ordinary), "content": "x"}).stdout == b""


def test_the_hook_command_works_through_a_link_as_pipx_and_uv_make_it(project, tmp_path):
    project.write_policy(NO_RM)
    link = tmp_path / "on-path" / "cupcake"
    link.parent.mkdir()
    link.symlink_to(cupcake_executable())
    payload = json.dumps(project.tool_call("Bash", {"command": "rm -rf build"})).encode()
    done = subprocess.run(
        [str(link), "run", "--event", "PreToolUse"], input=payload, capture_output=True, env=project.env(), timeout=60
    )
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", done


@pytest.mark.parametrize("how", ["a relative link", "a chain of links", "a relative path"])
def test_the_hook_command_works_however_the_launcher_is_named(project, tmp_path, how):
    """The launcher finds its installation from the links to itself (posix.readlink, as its shell part
    follows them); called by a relative path it takes its full search. Each answers the same deny."""
    project.write_policy(NO_RM)
    launcher = Path(cupcake_executable())
    first = tmp_path / "a" / "cupcake"
    first.parent.mkdir()
    first.symlink_to(os.path.relpath(launcher, first.parent))
    second = tmp_path / "b" / "cupcake"
    second.parent.mkdir()
    second.symlink_to("../a/cupcake")
    argv0, cwd = {
        "a relative link": (str(first), None),
        "a chain of links": (str(second), None),
        "a relative path": ("./" + launcher.name, launcher.parent),
    }[how]
    payload = json.dumps(project.tool_call("Bash", {"command": "rm -rf build"})).encode()
    done = subprocess.run(
        [argv0, "run", "--event", "PreToolUse"],
        input=payload,
        capture_output=True,
        env=project.env(),
        timeout=60,
        cwd=cwd,
    )
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", done


@pytest.mark.parametrize("closed", [False, True])
def test_a_launcher_that_finds_no_python_still_answers(project, tmp_path, closed):
    project.write_policy(NO_RM)
    alone = tmp_path / "alone" / "cupcake"
    alone.parent.mkdir()
    alone.write_bytes(Path(cupcake_executable()).read_bytes())
    alone.chmod(0o755)
    payload = json.dumps(project.tool_call("Bash", {"command": "rm -rf build"})).encode()
    args = [str(alone), "run", "--event", "PreToolUse"] + (["--fail-closed"] if closed else [])
    done = subprocess.run(args, input=payload, capture_output=True, env=project.env(), timeout=60)
    if closed:
        assert done.returncode == 2 and b"cannot find the Python it was installed with" in done.stderr, done
    else:
        assert done.returncode == 0 and "cannot find the Python" in json.loads(done.stdout)["systemMessage"], done


# 3. Hook input Cupcake cannot read (item 1) ##########################################################

_BIG = 33 << 20


def _raw(kind: str, project) -> bytes:
    head = {
        "session_id": project.session_id,
        "hook_event_name": "PreToolUse",
        "cwd": str(project.root),
        "tool_name": "Bash",
    }
    prefix = json.dumps(head)[:-1].encode()
    if kind == "nested 1,000 deep":  # the issue's example
        return prefix + b', "tool_input": ' + b"[" * 1000 + b"]" * 1000 + b"}"
    if kind == "nested 150 deep in objects":
        return prefix + b', "tool_input": {"command": "rm -rf /", "x": ' + b'{"a":' * 150 + b"1" + b"}" * 151 + b"}"
    if kind == "a 5,000-digit integer":  # the issue's example
        return prefix + b', "tool_input": {"command": "rm -rf /", "n": ' + b"9" * 5000 + b"}}"
    if kind == "a negative 4,301-digit integer":
        return prefix + b', "tool_input": {"command": "ls", "n": -' + b"1" * 4301 + b"}}"
    if kind == "a huge string":
        return prefix + b', "tool_input": {"command": "rm -rf / #' + b"x" * _BIG + b'"}}'
    if kind == "a million tiny values":
        return prefix + b', "tool_input": {"command": "ls", "v": [' + b",".join([b"0"] * 1_000_000) + b"]}}"
    if kind == "invalid UTF-8":
        return prefix + b', "tool_input": {"command": "rm -rf build \xff\xfe"}}'
    if kind == "UTF-8 of a surrogate":
        return prefix + b', "tool_input": {"command": "rm -rf build \xed\xa0\x80"}}'
    if kind == "a lone surrogate in the command":
        return prefix + b', "tool_input": {"command": "ls \\ud800"}}'
    if kind == "a lone low surrogate in a key":
        return prefix + b', "tool_input": {"command": "ls", "\\uDC00": 1}}'
    if kind == "a lone surrogate in the session id":
        return json.dumps({**head, "session_id": "s\ud800", "tool_input": {"command": "ls"}}).encode()
    raise AssertionError(kind)


UNREADABLE = {
    "nested 1,000 deep": "nested more than 100 levels deep",
    "nested 150 deep in objects": "nested more than 100 levels deep",
    "a 5,000-digit integer": "a number of 5000 digits",
    "a negative 4,301-digit integer": "a number of 4302 digits",
    "a huge string": "larger than 32 MiB",
    "a million tiny values": "more than 500,000 values",
    "invalid UTF-8": "not UTF-8 text",
    "UTF-8 of a surrogate": "not UTF-8 text",
    "a lone surrogate in the command": "tool_input.command holds text that is not valid Unicode",
    "a lone low surrogate in a key": "has a key that is not valid Unicode",
    "a lone surrogate in the session id": "session_id holds text that is not valid Unicode",
}


@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_input_it_cannot_read_is_denied_saying_what(project, kind):
    project.write_policy(NO_RM)  # fail_mode "open", the default: before, no decision at all
    answer = project.send_process(_raw(kind, project), "PreToolUse", timeout=120)
    assert answer.code == 0 and b"Traceback" not in answer.stderr, answer
    assert _decision(answer) == "deny", answer
    reason = _reason(answer)
    assert reason.startswith("Cupcake could not read this hook event, so it is blocked: "), reason
    assert UNREADABLE[kind] in reason and "write the tool call plainly" in reason, reason


@pytest.mark.parametrize(
    "event, expect",
    [
        ("PermissionRequest", lambda j: j["hookSpecificOutput"]["decision"]["behavior"] == "deny"),
        ("PostToolUse", lambda j: j["decision"] == "block"),
        ("UserPromptSubmit", lambda j: j["decision"] == "block"),
        (
            "SessionStart",
            lambda j: "permissionDecision" not in json.dumps(j) and "could not read" in j["systemMessage"],
        ),
    ],
)
def test_input_it_cannot_read_gets_each_events_own_answer(project, event, expect):
    project.write_policy(NO_RM)
    raw = _raw("nested 1,000 deep", project).replace(b'"PreToolUse"', json.dumps(event).encode())
    answer = project.send_process(raw, event)
    assert answer.code == 0 and expect(answer.json), answer


@pytest.mark.parametrize(
    "agent, event, denied",
    [
        ("codex", "PreToolUse", lambda j: j["hookSpecificOutput"]["permissionDecision"] == "deny"),
        ("gemini", "BeforeTool", lambda j: j["decision"] == "deny"),
        ("copilot", "preToolUse", lambda j: j["permissionDecision"] == "deny"),
        ("droid", "PreToolUse", lambda j: j["hookSpecificOutput"]["permissionDecision"] == "deny"),
        ("cursor", "preToolUse", lambda j: j["permission"] == "deny"),
    ],
)
def test_every_agent_gets_its_own_denial_for_input_it_cannot_read(project, agent, event, denied):
    project.write_policy(NO_RM)
    raw = b'{"tool_input": ' + b"[" * 1000 + b"]" * 1000 + b"}"
    answer = project.send_process(raw, args=["run", "--agent", agent, "--event", event][1:])
    assert answer.code == 0 and denied(answer.json), answer


def test_without_a_policy_file_cupcake_still_says_nothing(project):
    answer = project.send_process(_raw("nested 1,000 deep", project), "PreToolUse")
    assert (answer.code, answer.stdout, answer.stderr) == (0, b"", b"")


@pytest.mark.parametrize(
    "raw_input",
    ['"cupcake.toml"', "[1, 2]", "7"],
)
def test_a_tool_input_that_is_not_an_object_is_denied(project, raw_input):
    project.write_policy(NO_RM)
    raw = (
        json.dumps(project.tool_call("Write", {}))
        .encode()
        .replace(b'"tool_input": {}', b'"tool_input": ' + raw_input.encode())
    )
    answer = project.send_process(raw, "PreToolUse")
    assert _decision(answer) == "deny" and "could not be read" in _reason(answer), answer


@pytest.mark.parametrize("agent, event", [("copilot", "preToolUse"), ("cursor", "beforeMCPExecution")])
def test_an_agents_arguments_that_do_not_parse_are_denied(project, agent, event):
    project.write_policy(NO_RM)
    if agent == "copilot":
        raw = {"cwd": str(project.root), "toolName": "create", "toolArgs": '{"path": "cupcake.toml", '}
    else:
        raw = {"cwd": str(project.root), "hook_event_name": event, "tool_name": "write_file", "tool_input": "{not json"}
    answer = project.send_process(json.dumps(raw).encode(), args=["--agent", agent, "--event", event])
    denial = answer.json.get("permissionDecision") or answer.json.get("permission")
    assert denial == "deny", answer


# 4. Policy files that cannot be loaded (item 1) ######################################################


def _deep_array(depth: int) -> str:
    return "x = " + "[" * depth + "]" * depth + "\n"


@pytest.mark.parametrize(
    "where, text",
    [
        ("the user's file", _deep_array(500)),  # the issue's example: > 400
        ("the user's file", "t = " + "{a = " * 70 + "1" + "}" * 70 + "\n"),
        ("the user's file", _deep_array(65)),
        ("an imported file", _deep_array(1000)),
        (
            "an imported file",
            '[[policy]]\nname = "deep"\nconditions = ['
            + "{ not = " * 80
            + '{ type = "command_regex", value = "x" }'
            + " }" * 80
            + ']\naction = { type = "approve" }\n',
        ),
    ],
)
def test_a_policy_file_that_cannot_be_loaded_is_an_error_for_that_file_alone(project, where, text):
    project.write_policy('imports = ["policies/*.toml"]\n\n' + NO_RM)
    (project.root / "policies").mkdir()
    if where == "the user's file":
        broken = project.write_user_policy(text)
        shown = "~/.claude/cupcake.toml"
    else:
        broken = project.root / "policies" / "deep.toml"
        broken.write_text(text)
        shown = "policies/deep.toml"
    answer = _send(project, "Bash", {"command": "rm -rf build"})
    assert _reason(answer) == "Operation blocked: No rm -rf.", answer  # the other file's rules stand
    assert shown in answer.json["systemMessage"] and "out of service" in answer.json["systemMessage"], answer
    protected = _send(project, "Write", {"file_path": str(broken), "content": ""})  # self-protection stays on
    assert _decision(protected) == "deny", protected
    for command in (["validate"], ["doctor"]):
        done = _cli(project, *command)
        assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done
        assert f"{shown}:1" in done.stdout or f"{shown}:" in done.stdout, done
    explained = subprocess.run(
        [cupcake_executable(), "explain", "--command", "rm -rf build"],
        capture_output=True,
        text=True,
        cwd=project.root,
        env=project.env(),
        timeout=60,
    )
    assert "Traceback" not in explained.stdout + explained.stderr and shown in explained.stdout, explained


def test_a_deeply_nested_policy_file_blocks_under_fail_mode_closed(project):
    project.write_policy('[settings]\nfail_mode = "closed"\n')
    project.write_user_policy(_deep_array(500))
    answer = _send(project, "Bash", {"command": "ls"})
    assert _decision(answer) == "deny" and "~/.claude/cupcake.toml:1" in _reason(answer), answer


def test_validate_names_the_line_of_the_nesting(project):
    project.write_policy(NO_RM + "\n\n\nlimits = " + "[" * 100 + "]" * 100 + "\n")
    done = _cli(project, "validate")
    assert (
        done.returncode == 1
        and "cupcake.toml:8: error: arrays and inline tables are nested more than 64" in done.stdout
    )


# 5. Imports (item 6) ##################################################################################


@pytest.fixture
def importing(project):
    project.write_policy('imports = ["policies/**/*.toml"]\n\n[settings]\nfail_mode = "closed"\n')
    (project.root / "policies" / "team").mkdir(parents=True)
    (project.root / "policies" / "team" / "rules.toml").write_text(NO_RM)
    return project


def test_a_flooded_import_folder_is_an_error_that_blocks_when_closed(importing):
    for n in range(510):  # the issue's `mkdir -p policies/d{1..510}`, done by a person or a program
        (importing.root / "policies" / f"d{n}").mkdir()
    answer = _send(importing, "Bash", {"command": "ls"})
    assert _decision(answer) == "deny" and "scans more than 500 directories" in _reason(answer), answer
    assert (
        _decision(
            _send(
                importing,
                "Write",
                {"file_path": str(importing.root / "policies" / "team" / "rules.toml"), "content": ""},
            )
        )
        == "deny"
    )


@pytest.mark.parametrize(
    "target",
    ["policies/d1", "policies/team/new", "policies/team/new/rules.toml", "policies/x.toml", "policies"],
)
def test_the_agent_may_not_make_or_change_folders_an_import_reads(importing, target):
    for tool, tool_input in (
        ("Write", {"file_path": str(importing.root / target / "README.md"), "content": "x"}),
        ("mcp__filesystem__create_directory", {"path": str(importing.root / target)}),
    ):
        answer = _send(importing, tool, tool_input)
        assert _decision(answer) == "deny", (tool, target, answer)


def test_a_folder_outside_what_an_import_reads_is_the_agents(project):
    project.write_policy('imports = ["policies/*.toml"]\n\n' + NO_RM)
    (project.root / "policies").mkdir()
    for target in ("policies/README.md", "src/policies/x.toml", "docs/a.md"):
        answer = _send(project, "Write", {"file_path": str(project.root / target), "content": "x"})
        assert answer.stdout == b"", (target, answer)


@pytest.mark.skipif(os.geteuid() == 0, reason="root lists any folder: chmod 000 locks out a user only")
def test_an_unreadable_import_folder_is_an_error(importing):
    (importing.root / "policies" / "team").chmod(0)
    try:
        answer = _send(importing, "Bash", {"command": "ls"})
        assert _decision(answer) == "deny" and "cannot be listed" in _reason(answer), answer
    finally:
        (importing.root / "policies" / "team").chmod(0o755)


# 6. Every agent's own shapes (item 7) ################################################################


@pytest.fixture
def codex_project(project):
    """A project with rules at its root and a Codex session started in src/ (Codex names no project folder)."""
    project.write_policy(NO_RM)
    (project.root / ".git").mkdir()
    (project.root / "src").mkdir()
    project.cwd = project.root / "src"
    project.use_project_dir_env = False
    return project


def _codex(project, tool: str, tool_input: dict):
    payload = project.tool_call(tool, tool_input)
    answer = project.send_process(payload, args=["--agent", "codex", "--event", "PreToolUse"])
    assert b"Traceback" not in answer.stdout + answer.stderr, answer
    return answer


@pytest.mark.parametrize("planted", ["src/cupcake.toml", "src/.git + src/cupcake.toml", "src/deep/er/cupcake.toml"])
def test_a_policy_file_made_in_a_subfolder_never_replaces_the_projects_rules(codex_project, planted):
    folder = codex_project.root / planted.split(" + ")[-1].rsplit("/", 1)[0]
    folder.mkdir(parents=True, exist_ok=True)
    if ".git" in planted:
        (codex_project.root / "src" / ".git").mkdir()
    (folder / "cupcake.toml").write_text(
        '[settings]\nself_protection = false\n[[policy]]\nname = "all"\naction = { type = "approve" }\n'
    )
    if "deep" in planted:
        codex_project.cwd = folder
    assert _decision(_codex(codex_project, "Bash", {"command": "rm -rf build"})) == "deny"
    to_root = os.path.relpath(codex_project.root / "cupcake.toml", codex_project.cwd)
    patch = f"*** Begin Patch\n*** Delete File: {to_root}\n*** End Patch\n"
    assert _decision(_codex(codex_project, "apply_patch", {"command": patch})) == "deny"


def test_a_policy_file_above_the_worktree_changes_nothing(codex_project, tmp_path):
    (codex_project.root.parent / "cupcake.toml").write_text('[[policy]]\nname = "all"\naction = { type = "approve" }\n')
    try:
        assert _decision(_codex(codex_project, "Bash", {"command": "rm -rf build"})) == "deny"
    finally:
        (codex_project.root.parent / "cupcake.toml").unlink()


@pytest.mark.parametrize("where", ["src/cupcake.toml", "src/deep/cupcake.toml"])
def test_outside_a_git_worktree_a_policy_file_may_not_be_made_below_the_root(codex_project, where):
    """There the nearest cupcake.toml is the project's: a new one below would govern an agent started there."""
    (codex_project.root / ".git").rmdir()
    patch = f"*** Begin Patch\n*** Add File: {codex_project.root / where}\n+[settings]\n*** End Patch"
    for tool, tool_input in (
        ("apply_patch", {"command": patch}),
        ("Bash", {"command": f"touch {codex_project.root / where}"}),
    ):
        answer = _codex(codex_project, tool, tool_input)
        assert _decision(answer) == "deny", (tool, answer)


@pytest.mark.parametrize(
    "header",
    [
        "  *** Delete File: cupcake.toml",  # the issue's example
        "\t*** Delete File: cupcake.toml",
        "\u00a0*** Delete File: cupcake.toml",
        "\u3000*** Delete File: cupcake.toml  ",
        "*** Delete File: cupcake.toml\r",
        "*** DELETE FILE: cupcake.toml",
        "*** Update File: notes.txt\n*** Move to: .cupcake/policy.cache",
        "*** Update File: notes.txt\n  *** Move to: cupcake.toml",
        "*** Add File: notes.txt\n+x\n   *** Update File: .cupcake/state/s.json",
        "*** Delete File:  cupcake.toml",
    ],
)
def test_apply_patch_headers_are_read_the_way_codex_reads_them(codex_project, header):
    codex_project.cwd = codex_project.root
    patch = f"*** Begin Patch\n{header}\n@@\n-a\n+b\n*** End Patch"
    for tool_input in ({"command": patch}, {"command": patch, "file_paths": [], "file_path": "notes.txt"}):
        answer = _codex(codex_project, "apply_patch", tool_input)
        assert _decision(answer) == "deny", (header, tool_input, answer)


def test_an_ordinary_patch_is_allowed(codex_project):
    codex_project.cwd = codex_project.root
    patch = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-a\n+b\n*** End Patch"
    assert _codex(codex_project, "apply_patch", {"command": patch}).stdout == b""


@pytest.mark.parametrize(
    "tool, tool_args",
    [
        ("create", {"path": "cupcake.toml", "file_path": "decoy.txt", "file_text": ""}),  # the issue's example
        ("edit", {"path": ".cupcake/policy.cache", "file_path": "decoy.txt", "old_str": "a", "new_str": "b"}),
        ("create", {"file_path": "decoy.txt", "path": "cupcake.toml", "notebook_path": "x.ipynb", "file_text": ""}),
        ("create", {"path": "decoy.txt", "filepath": "cupcake.toml", "file_text": ""}),
    ],
)
def test_every_path_field_of_a_copilot_tool_is_checked(project, tool, tool_args):
    project.write_policy(NO_RM)
    raw = {"cwd": str(project.root), "toolName": tool, "toolArgs": json.dumps(tool_args)}
    answer = project.send_process(json.dumps(raw).encode(), args=["--agent", "copilot", "--event", "preToolUse"])
    assert answer.json["permissionDecision"] == "deny", answer


def test_policies_see_the_path_the_copilot_tool_writes(project):
    project.write_policy(
        '[[policy]]\nname = "no env"\nmatcher = "Write"\nconditions = [{ type = "filepath_regex", value = "\\\\.env$" }]\n'
        'action = { type = "block_with_feedback", feedback_message = "No .env." }\n'
    )
    raw = {
        "cwd": str(project.root),
        "toolName": "create",
        "toolArgs": json.dumps({"path": ".env", "file_path": "ok.txt", "file_text": "K=1"}),
    }
    answer = project.send_process(json.dumps(raw).encode(), args=["--agent", "copilot", "--event", "preToolUse"])
    assert answer.json["permissionDecisionReason"] == "Operation blocked: No .env.", answer


@pytest.mark.parametrize(
    "event, tool, tool_input",
    [
        ("beforeMCPExecution", "write_file", {"path": "cupcake.toml", "content": "x"}),  # the issue's example
        ("beforeMCPExecution", "edit_file", {"path": ".cupcake/policy.cache", "edits": []}),
        ("beforeMCPExecution", "read_file", {"path": "{secret}"}),
        ("preToolUse", "MCP:write_file", {"path": "cupcake.toml", "content": "x"}),
        ("preToolUse", "MCP:move_file", {"source": ".cupcake", "destination": "/tmp/x"}),
    ],
)
def test_a_cursor_mcp_tool_is_treated_as_mcp_whatever_its_name(project, event, tool, tool_input):
    project.write_policy(NO_RM)
    tool_input = json.loads(json.dumps(tool_input).replace("{secret}", str(_secret(project))))
    raw = {
        "hook_event_name": event,
        "cwd": str(project.root),
        "workspace_roots": [str(project.root)],
        "tool_name": tool,
        "tool_input": json.dumps(tool_input) if event == "beforeMCPExecution" else tool_input,
    }
    answer = project.send_process(json.dumps(raw).encode(), args=["--agent", "cursor", "--event", event])
    assert answer.json["permission"] == "deny", answer


def test_a_cursor_mcp_tool_reaches_mcp_policies(project):
    project.write_policy(
        '[[policy]]\nname = "no mcp"\nmatcher = "mcp__.*"\n'
        'action = { type = "block_with_feedback", feedback_message = "No MCP." }\n'
    )
    raw = {
        "hook_event_name": "beforeMCPExecution",
        "cwd": str(project.root),
        "workspace_roots": [str(project.root)],
        "tool_name": "query",
        "tool_input": "{}",
    }
    answer = project.send_process(json.dumps(raw).encode(), args=["--agent", "cursor", "--event", "beforeMCPExecution"])
    assert answer.json["permission"] == "deny" and "No MCP." in answer.json["user_message"], answer


def test_a_compiler_that_fails_as_a_whole_leaves_self_protection_on(project):
    """A bug or a limit the compiler does not handle: the run keeps self-protection's defaults and says so."""
    project.write_policy(NO_RM)
    module = project.installation.copy_package() / "cupcake" / "compile" / "compiler.py"
    module.write_text(
        module.read_text() + "\n\ndef compile_files(*a, **k):\n    raise RuntimeError('planted for the test')\n"
    )
    answer = _send(project, "Write", {"file_path": str(project.root / "cupcake.toml"), "content": ""})
    assert _decision(answer) == "deny" and "Cupcake self-protection" in _reason(answer), answer
    assert "could not be compiled (RuntimeError: planted for the test)" in answer.json["systemMessage"], answer
