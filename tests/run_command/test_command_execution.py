"""Running commands for real: arguments received, lookup, limits, output capture, process cleanup."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time

import pytest

from cupcake.run_command import CommandSpecError, render_feedback, run_command

PY = shlex.quote(sys.executable)
# Prints the arguments it received as a JSON list.
SHOW_ARGS = f"{PY} -c 'import sys,json; print(json.dumps(sys.argv[1:]))'"
AGENT_COMMAND = "npm install x; rm -rf ~"

HOSTILE = [
    "a; touch PWNED",
    "a && touch PWNED",
    "$(touch PWNED)",
    "`touch PWNED`",
    "it's \"quoted\" 'twice'",
    "line1\nline2; touch PWNED",
    "-rf ~",
    "",
]


def run(root, spec: dict, values: dict | None = None, *, within: float = 20.0):
    return run_command(spec, values or {}, root=str(root), deadline=time.monotonic() + within)


def write_script(path, body: str, mode: int = 0o755) -> None:
    path.write_text(body)
    path.chmod(mode)


def alive(pid: int) -> bool:
    """Running or stopped, not merely a zombie nobody has reaped yet."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    if not os.path.isdir("/proc"):
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    if not os.path.isdir("/proc"):
        return True
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            return True
    return False


def gone_soon(check, *args) -> bool:
    end = time.monotonic() + 1.0
    while check(*args):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


@pytest.mark.parametrize("shell", [False, True])
def test_hostile_values_arrive_as_single_arguments(tmp_path, shell: bool) -> None:
    for value in HOSTILE:
        spec = {
            "command": SHOW_ARGS + " '{{command}}' {{command}} \"pre {{command}} post\" --v={{command}}",
            "shell": shell,
        }
        result = run(tmp_path, spec, {"command": value})
        if value.startswith("-"):  # it would be an option of the program: refused, never run
            assert result.not_started and "the value of {{command}} starts with '-'" in result.error
            continue
        assert result.ok, result.stderr
        assert json.loads(result.stdout) == [value, value, f"pre {value} post", f"--v={value}"]
    assert not (tmp_path / "PWNED").exists()


def test_seed_003_notify_script_at_the_project_root(tmp_path) -> None:
    write_script(
        tmp_path / "notify_script.sh", f"#!{sys.executable}\nimport sys, json\nprint(json.dumps(sys.argv[1:]))\n"
    )
    result = run(tmp_path, {"command": "./notify_script.sh '{{command}}'"}, {"command": AGENT_COMMAND})
    assert (result.ok, result.exit_code, result.stderr) == (True, 0, "")
    assert json.loads(result.stdout) == [AGENT_COMMAND]
    assert result.argv == ["./notify_script.sh", AGENT_COMMAND]
    assert os.path.normpath(result.executable) == str(tmp_path / "notify_script.sh")
    bare = run(tmp_path, {"command": "notify_script.sh '{{command}}'"}, {"command": AGENT_COMMAND})
    assert bare.not_started and "written as a path (./notify_script.sh)" in bare.error


def test_a_bare_name_is_looked_up_on_path_only_never_in_the_working_dir(tmp_path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    write_script(bin_dir / "cupcake-probe", "#!/bin/sh\necho from PATH\n")
    write_script(project / "cupcake-probe", "#!/bin/sh\necho from the project\n")
    path = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', os.defpath)}"
    for shell in (False, True):
        assert run(project, {"command": "cupcake-probe", "env": {"PATH": path}, "shell": shell}).stdout == "from PATH\n"
        alone = run(project, {"command": "cupcake-probe", "shell": shell})
        assert alone.stdout == "" and not alone.ok
        dot = f".{os.pathsep}{os.pathsep}{os.environ.get('PATH', os.defpath)}"  # "." and "" name the project
        assert not run(project, {"command": "cupcake-probe", "env": {"PATH": dot}, "shell": shell}).ok


def test_working_dir_and_relative_paths(tmp_path) -> None:
    (tmp_path / "sub" / "tools").mkdir(parents=True)
    write_script(tmp_path / "sub" / "tools" / "where.sh", "#!/bin/sh\npwd -P\n")
    result = run(tmp_path, {"command": "./tools/where.sh", "working_dir": "sub"})
    assert result.stdout == f"{os.path.realpath(tmp_path / 'sub')}\n"
    assert result.cwd == str(tmp_path / "sub")
    missing = run(tmp_path, {"command": "tools/nothing.sh", "working_dir": "sub"})
    assert (missing.not_started, missing.error) == (True, "tools/nothing.sh does not exist in sub")


def test_working_dir_outside_the_root_is_a_spec_error(tmp_path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "escape").symlink_to(tmp_path)
    with pytest.raises(CommandSpecError, match="working_dir: '../' leads outside the project root"):
        run(project, {"command": "true", "working_dir": "../"})
    with pytest.raises(
        CommandSpecError, match="working_dir: 'escape' resolves to .*, which is outside the project root"
    ):
        run(project, {"command": "true", "working_dir": "escape"})


def test_a_missing_working_dir_does_not_start(tmp_path) -> None:
    result = run(tmp_path, {"command": "true", "working_dir": "no/such"})
    assert (result.ok, result.not_started, result.exit_code, result.pid) == (False, True, None, None)
    assert result.error == "the working directory no/such does not exist"


def test_a_missing_executable_does_not_start(tmp_path) -> None:
    result = run(tmp_path, {"command": "cupcake-no-such-program --flag"})
    assert (result.ok, result.not_started, result.timed_out, result.exit_code) == (False, True, False, None)
    assert result.error == "cupcake-no-such-program was not found on PATH"
    assert render_feedback(None, result, {}) == (
        "Command `cupcake-no-such-program --flag` could not start: cupcake-no-such-program was not found on PATH"
    )


def test_unusable_files_do_not_start(tmp_path) -> None:
    write_script(tmp_path / "plain.sh", "#!/bin/sh\necho hi\n", mode=0o644)
    result = run(tmp_path, {"command": "./plain.sh"})
    assert (result.not_started, result.error) == (True, "./plain.sh is not executable (chmod +x ./plain.sh)")
    write_script(tmp_path / "noshebang", "\x7fnot really a program\n")
    result = run(tmp_path, {"command": "./noshebang"})
    assert result.not_started
    assert result.error.startswith("./noshebang cannot be executed: Exec format error")


def test_a_nul_in_a_value_does_not_start(tmp_path) -> None:
    result = run(tmp_path, {"command": "echo {{command}}"}, {"command": "a\x00b"})
    assert (result.not_started, result.error) == (
        True,
        "argument 1 contains a NUL character, which no program can receive",
    )


def test_a_failing_command_renders_default_and_template_feedback(tmp_path) -> None:
    spec = {"command": "sh -c 'echo 3 passed; echo FAILED test_x >&2; exit 3'"}
    result = run(tmp_path, spec, {"command": "git commit -m x"})
    assert (result.ok, result.exit_code, result.stdout, result.stderr) == (False, 3, "3 passed\n", "FAILED test_x\n")
    assert render_feedback(None, result, {}) == (
        "Command `sh -c 'echo 3 passed; echo FAILED test_x >&2; exit 3'` failed (exit 3):\n3 passed\nFAILED test_x"
    )
    template = "Tests failed after `{{command}}` (exit {{exit_code}}). Failing tests:\n{{stderr}}"
    assert render_feedback(template, result, {"command": "git commit -m x"}) == (
        "Tests failed after `git commit -m x` (exit 3). Failing tests:\nFAILED test_x"
    )


def test_env_is_added_and_stdin_is_empty(tmp_path) -> None:
    spec = {
        "command": f"{PY} -c 'import os,sys; print(os.environ[\"CUPCAKE_PROBE\"], repr(sys.stdin.read()))'",
        "env": {"CUPCAKE_PROBE": "a b;c"},
    }
    result = run(tmp_path, spec, within=5)
    assert (result.exit_code, result.stdout) == (0, "a b;c ''\n")


def test_a_timeout_kills_the_whole_process_group(tmp_path) -> None:
    spec = {"command": "sh -c 'sleep 1000 & echo $!; sleep 1000'", "timeout": 0.4}
    started = time.monotonic()
    result = run(tmp_path, spec)
    assert time.monotonic() - started < 0.4 + 2
    assert (result.ok, result.timed_out, result.not_started, result.exit_code) == (False, True, False, None)
    background = int(result.stdout)
    assert gone_soon(alive, result.pid)
    assert gone_soon(alive, background)
    assert gone_soon(group_alive, result.pid)
    assert render_feedback(None, result, {}) == (
        f"Command `sh -c 'sleep 1000 & echo $!; sleep 1000'` timed out after 0.4s\n{background}"
    )


def test_a_group_that_ignores_sigterm_is_killed(tmp_path) -> None:
    spec = {"command": "sh -c 'trap \"\" TERM; sleep 1000 & echo $!; sleep 1000'", "timeout": 0.3}
    started = time.monotonic()
    result = run(tmp_path, spec)
    assert time.monotonic() - started < 0.3 + 2
    assert result.timed_out
    assert gone_soon(alive, int(result.stdout))
    assert gone_soon(group_alive, result.pid)


def test_a_background_process_holding_the_output_does_not_hold_the_result(tmp_path) -> None:
    spec = {"command": "sh -c 'sleep 1000 & echo $!; exit 0'", "timeout": 30}
    started = time.monotonic()
    result = run(tmp_path, spec)
    assert time.monotonic() - started < 2.5
    assert (result.ok, result.exit_code, result.timed_out) == (True, 0, False)
    assert result.error == "processes it started kept its output open after it exited; they were stopped"
    assert gone_soon(alive, int(result.stdout))


def test_the_deadline_wins_over_a_longer_timeout(tmp_path) -> None:
    started = time.monotonic()
    result = run(tmp_path, {"command": "sleep 1000", "timeout": 60}, within=0.5)
    assert time.monotonic() - started < 0.5 + 2
    assert result.timed_out
    assert 0.4 < result.timeout <= 0.5
    assert render_feedback(None, result, {}) == "Command `sleep 1000` timed out after 0.5s"
    assert gone_soon(alive, result.pid)


def test_no_time_left_means_timed_out_without_starting(tmp_path) -> None:
    result = run_command({"command": "sleep 1000"}, {}, root=str(tmp_path), deadline=time.monotonic() - 1)
    assert (result.timed_out, result.pid, result.exit_code, result.timeout) == (True, None, None, 0.0)
    assert render_feedback(None, result, {}) == (
        "Command `sleep 1000` timed out after 0s (no time was left before the hook's deadline)"
    )


def test_huge_output_keeps_the_tail_with_a_note(tmp_path) -> None:
    code = "import sys; sys.stdout.write('x' * 10_000_000 + '\\n3 failed, 97 passed\\n')"
    result = run(tmp_path, {"command": f"{PY} -c {shlex.quote(code)}"})
    assert result.exit_code == 0
    note, _, tail = result.stdout.partition("\n")
    assert note == f"[output cut: the first {10_000_021 - 65536} bytes are not shown]"
    assert len(tail.encode()) == 65536
    assert tail.endswith("x\n3 failed, 97 passed\n")


def test_both_streams_are_read_together(tmp_path) -> None:
    code = (
        "import sys\nfor i in range(2000):\n sys.stdout.write('o' * 999 + '\\n'); sys.stderr.write('e' * 999 + '\\n')\n"
        "sys.stdout.write('OUT END\\n'); sys.stderr.write('ERR END\\n')"
    )
    result = run(tmp_path, {"command": f"{PY} -c {shlex.quote(code)}", "max_output": 100, "timeout": 10})
    assert (result.exit_code, result.timed_out) == (0, False)
    assert (
        result.stdout == f"[output cut: the first {2_000_008 - 100} bytes are not shown]\n" + "o" * 91 + "\nOUT END\n"
    )
    assert (
        result.stderr == f"[output cut: the first {2_000_008 - 100} bytes are not shown]\n" + "e" * 91 + "\nERR END\n"
    )


def test_a_signal_exit_is_reported(tmp_path) -> None:
    result = run(tmp_path, {"command": "sh -c 'kill -SEGV $$'"})
    assert (result.ok, result.exit_code, result.timed_out) == (False, -11, False)
    assert render_feedback(None, result, {}) == "Command `sh -c 'kill -SEGV $$'` failed (killed by signal SIGSEGV):"
