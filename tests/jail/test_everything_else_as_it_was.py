"""Everything but Cupcake's files is as it was inside the jail: the command's bytes (real bash is the
oracle: each command is run once as the agent would without the jail and once through Cupcake's answer,
and both must print the same, exit the same, and bash must have been given the very same text), the
environment, the working directory, the standard streams, the exit status, the process group and
signals, background processes and the network."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time

import pytest

# Each command first saves the text bash was given (BASH_EXECUTION_STRING), then does its tricky part.
SAVE = "printf '%s' \"$BASH_EXECUTION_STRING\" > executed.txt\n"
TRICKY = {
    "quotes": "echo 'a'\"b\"\\'c\\\" \"$HOME\" '$HOME' \"it's\" '''' \"\" '\\'' end",
    "newlines": "echo one\necho 'two\nlines'\n\n  echo \"three\n\"\n",
    "crlf": "echo a\r\necho b\r\n",
    "ansi-c": "printf '%s\\n' $'tab\\there\\x01\\x7f\\u00e9\\'q' $'\\\\n'",
    "heredocs": "cat <<'EOF'\n$HOME `date` \\n 'x'\nEOF\ncat <<EOF\n$((1+2)) \\$x\nEOF\ncat <<-\tEND\n\tindented\n\tEND",
    "binary-ish": "printf '%s' '\x01\x02\x1b[31mred\x1b[0m\x7f\x1f' | od -An -tx1",
    "unicode": "echo 'é ü 漢字 🙂 \u202e reversed \u200b zero-width'",
    "globs and braces": "echo {a,b}{1,2} '*' \"?\" [x]",
    "comments and bangs": "echo hi # a comment with 'quote\necho !! '!x' \"!$\"",
    "backslashes": "echo \\\\ '\\\\' \"\\\\\" \\\necontinued; printf '%s\\n' 'a\\b'",
    "substitutions": 'echo $(echo $((6*7))) `echo tick` ${HOME:+set} "${#HOME}"',
    "looks like a jailed command": "echo \"'/usr/bin/python3' -I -S '/x/cupcake/jail/launch.py' 'a' 'b' 'c' 'd'\"",
    "exit inside": "echo before; exit 3; echo after",
}


def _unjailed(jail, command: str):
    return jail.bash(command)


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_the_command_reaches_bash_byte_for_byte_and_does_what_it_did(jail, name):
    command = SAVE + TRICKY[name]
    plain = _unjailed(jail, command)
    executed = jail.project.root / "executed.txt"
    assert executed.read_bytes() == command.encode()
    executed.unlink()
    jailed = jail.run(command)
    assert executed.read_bytes() == command.encode(), name
    assert (jailed.code, jailed.stdout, jailed.stderr) == (plain.code, plain.stdout, plain.stderr)


def test_a_very_long_command_runs_whole(jail):
    payload = ("x" * 95 + "'y\"z\n") * 1_000  # 100 KB, quotes and newlines all along
    command = SAVE + f": '{payload.replace(chr(39), chr(39) + chr(92) + chr(39) + chr(39))}'\necho done"
    ran = jail.run(command)
    assert ran.stdout == "done\n", ran
    assert (jail.project.root / "executed.txt").read_bytes() == command.encode()


def test_a_command_too_long_to_jail_is_blocked_with_the_reason(jail):
    answer = jail.answer("echo " + "a" * 140_000)
    reason = answer.specific["permissionDecisionReason"]
    assert answer.specific["permissionDecision"] == "deny"
    assert "over the 131072-byte limit" in reason and "write it to a script file" in reason


def test_a_command_with_a_nul_character_is_blocked(jail):
    answer = jail.answer("echo a\0b")
    assert answer.specific["permissionDecision"] == "deny"
    assert "NUL character" in answer.specific["permissionDecisionReason"]


def test_environment_working_directory_and_streams_are_the_agents(jail):
    sub = jail.project.root / "src" / "deep"
    sub.mkdir(parents=True)
    env = {"CUSTOM": "a value\nwith a newline", "PATH": os.environ["PATH"]}
    command = "pwd; printf '%s|' \"$CUSTOM\" \"$PWD\"; echo; echo to-stderr >&2; od -An -c | tr -s ' '"
    stdin = b"in\x00put\xff\n"
    plain = jail.bash(command, stdin=stdin, env=env, cwd=sub)
    jailed_line = jail.command(command)
    jailed = jail.bash(jailed_line, stdin=stdin, env=env, cwd=sub)
    assert (jailed.code, jailed.stdout, jailed.stderr) == (plain.code, plain.stdout, plain.stderr)
    assert jailed.stdout.startswith(f"{sub}\na value\nwith a newline|{sub}|")


@pytest.mark.parametrize("code", [0, 1, 2, 126, 127, 255])
def test_the_exit_status_comes_back(jail, code):
    assert jail.run(f"exit {code}").code == code


def test_a_command_killed_by_a_signal_reports_it_as_a_shell_does(jail):
    assert jail.run("kill -TERM $$").code == 128 + signal.SIGTERM


def test_the_agent_stops_it_through_its_process_group(jail):
    """Agents stop a command by signalling its process group: the jailed command gets the signal."""
    line = jail.command("trap 'echo got-term; exit 9' TERM; echo ready; while :; do sleep 0.05; done")
    process = subprocess.Popen(
        ["/bin/bash", "-c", line],
        cwd=jail.project.root,
        env=jail.project.env(),
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert process.stdout.readline() == b"ready\n"
        os.killpg(process.pid, signal.SIGTERM)
        out, _ = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert out == b"got-term\n"  # once: the launcher does not pass the signal on a second time
    assert process.returncode == 9


def test_the_process_group_is_the_agents(jail):
    command = "ps -o pgid= -p $$ | tr -d ' '"
    line = jail.command(command)
    outer = subprocess.run(
        ["/bin/bash", "-c", f"ps -o pgid= -p $$ | tr -d ' '; {line}"],
        cwd=jail.project.root,
        env=jail.project.env(),
        capture_output=True,
        text=True,
    )
    first, second = outer.stdout.split()
    assert first == second


def test_a_background_process_outlives_the_command(jail):
    ran = jail.run("sleep 30 >/dev/null 2>&1 & echo $!")
    pid = int(ran.stdout)
    try:
        os.kill(pid, 0)  # still running, and a process of this user like any other
    finally:
        os.kill(pid, signal.SIGKILL)


def _server():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)

    def serve():
        try:
            while True:
                connection, _ = listener.accept()
                connection.sendall(b"hello\n")
                connection.close()
        except OSError:
            pass

    threading.Thread(target=serve, daemon=True).start()
    return listener


def test_the_network_is_the_agents_unless_asked_otherwise(jail):
    listener = _server()
    try:
        port = listener.getsockname()[1]
        command = f"python3 -c \"import socket; print(socket.create_connection(('127.0.0.1', {port}), 5).recv(6))\""
        assert jail.run(command).stdout == "b'hello\\n'\n"
        offline = jail.bash(jail.command(command, net=True))
        assert offline.code != 0 and "hello" not in offline.stdout
    finally:
        listener.close()


def test_the_jail_starts_within_its_budget(jail):
    """A generous bound for a shared CI machine; bench/bench.py measures the real figure."""
    line = jail.command("true")
    started = time.monotonic()
    for _ in range(5):
        assert jail.bash(line).code == 0
    assert (time.monotonic() - started) / 5 < 0.5


def test_cupcake_jail_runs_one_command_in_the_same_jail_for_a_person(jail):
    from tests.conftest import cupcake_executable

    argv = [cupcake_executable(), "jail", "--", "sh", "-c", "echo hi > ordinary.txt; echo x > cupcake.toml; exit 4"]
    done = subprocess.run(argv, cwd=jail.project.root, env=jail.project.env(), capture_output=True, text=True)
    assert done.returncode == 4 and "Read-only file system" in done.stderr
    assert (jail.project.root / "ordinary.txt").read_text() == "hi\n"
    assert jail.policy.read_text().startswith("[settings]")
