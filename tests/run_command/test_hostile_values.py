"""A placeholder's value never becomes an option or code, and a bare program name never runs a file the agent
planted in the project: through the installed executable, a fresh process each time."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from tests.conftest import cupcake_executable

ORIGINAL = (
    '[[policy]]\nname = "check"\nmatcher = "Write"\naction = {{ type = "run_command", command = "{command}"{extra} }}\n'
)


def _project(tmp_path, command: str, extra: str = "", matcher: str = "Write"):
    root = (tmp_path / "p").resolve()
    root.mkdir()
    (tmp_path / "h").mkdir()
    text = ORIGINAL.format(command=command, extra=extra).replace('matcher = "Write"', f'matcher = "{matcher}"')
    (root / "cupcake.toml").write_text(text)
    return root


def _send(root, tool: str, tool_input: dict, env_extra: dict | None = None, path: str | None = None):
    payload = {
        "session_id": "s1",
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "t1",
    }
    env = {"HOME": str(root.parent / "h"), "PATH": path or os.environ.get("PATH", os.defpath)}
    env["CLAUDE_PROJECT_DIR"] = str(root)
    env.update(env_extra or {})
    done = subprocess.run(
        [cupcake_executable(), "run", "--event", "PreToolUse"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=root,
        env=env,
        timeout=60,
    )
    return done, (json.loads(done.stdout) if done.stdout.strip() else {})


def _reason(answer: dict) -> str:
    return answer.get("hookSpecificOutput", {}).get("permissionDecisionReason", "") + answer.get("systemMessage", "")


@pytest.mark.skipif(not shutil.which("git"), reason="needs git")
@pytest.mark.parametrize("shell", [False, True])
def test_a_path_value_starting_with_a_dash_is_passed_as_a_path_not_an_option(tmp_path, shell):
    root = _project(
        tmp_path, "git diff --no-index --exit-code {{file_path}} notes.txt", f", shell = {str(shell).lower()}"
    )
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    (root / "notes.txt").write_text("notes\n")
    before = (root / "cupcake.toml").read_bytes()
    done, answer = _send(root, "Write", {"file_path": "--output=cupcake.toml", "content": "x"})
    assert (root / "cupcake.toml").read_bytes() == before  # git never saw --output=…
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"  # ./--output=cupcake.toml does not exist
    assert "./--output=cupcake.toml" in _reason(answer)


@pytest.mark.skipif(not shutil.which("git"), reason="needs git")
def test_the_seed_shape_git_diff_file_path_never_writes_the_policy_file(tmp_path):
    root = _project(tmp_path, "git diff {{file_path}}")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    before = (root / "cupcake.toml").read_bytes()
    done, answer = _send(root, "Write", {"file_path": "--output=cupcake.toml", "content": "x"})
    assert (root / "cupcake.toml").read_bytes() == before
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", done


def test_another_value_starting_with_a_dash_fails_the_check_with_a_clear_message(tmp_path):
    (tmp_path / "bin").mkdir()
    marker = tmp_path / "ran"
    probe = tmp_path / "bin" / "cupcake-probe"
    probe.write_text(f"#!/bin/sh\ntouch {marker}\n")
    probe.chmod(0o755)
    root = _project(tmp_path, "cupcake-probe {{command}}", matcher="Bash")
    path = f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', os.defpath)}"
    done, answer = _send(root, "Bash", {"command": "--delete-everything"}, path=path)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", done
    assert "the value of {{command}} starts with '-'" in _reason(answer)
    assert not marker.exists()
    done, answer = _send(root, "Bash", {"command": "ls -la"}, path=path)
    assert marker.exists() and "permissionDecision" not in answer.get("hookSpecificOutput", {})


SHELLS = [s for s in ("/bin/bash", "/bin/dash") if os.path.exists(s)]


@pytest.mark.parametrize("sh", SHELLS)
def test_the_threat_is_real_bash_runs_code_from_a_value_in_arithmetic(tmp_path, sh):
    """Why placeholders in arithmetic are refused: bash evaluates the subscript of a value as code."""
    subprocess.run([sh, "-c", 'echo $(( "$1" + 1 ))', "sh", "a[$(touch pwned)]"], cwd=tmp_path, capture_output=True)
    assert (tmp_path / "pwned").exists() == sh.endswith("bash")


@pytest.mark.parametrize("sh", SHELLS)
@pytest.mark.parametrize(
    "command",
    ["echo $(( {{command}} + 1 ))", "[[ {{command}} -eq 1 ]]", "a[{{command}}]=1", "eval {{command}}", "{{command}}"],
)
def test_a_placeholder_where_the_shell_reads_code_is_refused_when_the_policies_load(tmp_path, sh, command):
    root = _project(tmp_path, command.replace('"', '\\"'), ", shell = true", matcher="Bash")
    done, answer = _send(root, "Bash", {"command": "a[$(touch pwned)]"}, {"CUPCAKE_SHELL": sh})
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert "the shell would read the agent's value as code there" in _reason(answer)
    assert not (root / "pwned").exists()


@pytest.mark.parametrize("sh", SHELLS)
def test_shell_values_are_positional_parameters_under_bash_and_dash(tmp_path, sh):
    """CUPCAKE_SHELL picks the shell: the script sees which one runs it, and the value stays data."""
    out = tmp_path / "out"
    script = f'echo \\"${{BASH_VERSION:-dash}}\\" > {out}; echo {{{{command}}}} >> {out}'
    root = _project(tmp_path, script, ", shell = true", matcher="Bash")
    # Self-protection refuses this line itself (a program that is not written out); here the point is
    # what run_command does with the value, so it is off.
    (root / "cupcake.toml").write_text("[settings]\nself_protection = false\n\n" + (root / "cupcake.toml").read_text())
    done, answer = _send(root, "Bash", {"command": "a[$(touch pwned)] $((1+1)) `touch pwned`"}, {"CUPCAKE_SHELL": sh})
    assert "permissionDecision" not in answer.get("hookSpecificOutput", {}), (done, answer)
    first, second = out.read_text().splitlines()
    assert (first == "dash") == sh.endswith("dash")
    assert second == "a[$(touch pwned)] $((1+1)) `touch pwned`"
    assert not (root / "pwned").exists()


def test_a_program_planted_in_the_project_never_runs_in_place_of_the_named_one(tmp_path):
    root = _project(tmp_path, "pytest", matcher="Bash")
    marker = tmp_path / "planted-ran"
    for name in ("pytest", "bin/pytest"):
        planted = root / name
        planted.parent.mkdir(exist_ok=True)
        planted.write_text(f"#!/bin/sh\ntouch {marker}\n")
        planted.chmod(0o755)
    bare = tmp_path / "bare"  # a PATH without pytest, and with entries naming the project
    bare.mkdir()
    for path in (str(bare), f"{os.pathsep}.{os.pathsep}bin{os.pathsep}{bare}"):
        done, answer = _send(root, "Bash", {"command": "ls"}, path=path)
        assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", done
        assert "pytest was not found on PATH" in _reason(answer)
        assert "written as a path (./pytest)" in _reason(answer)
        assert not marker.exists()
