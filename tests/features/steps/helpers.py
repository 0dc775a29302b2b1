"""Shared by the step modules: the latest answer (Run), the user's terminal, the command line in
process, and sending events."""

from __future__ import annotations

import os
import shlex
import sys
import time

import pytest

from tests.conftest import Answer


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


def _answer(run) -> Answer:
    assert run.answer is not None, "no event was sent"
    assert run.answer.code == 0, run.answer
    return run.answer


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
        env["SHELL"] = "/bin/sh"  # the user's login shell, for what a fresh one finds (its profile: ~/.profile)
        return env


@pytest.fixture
def terminal(project) -> Terminal:
    return Terminal(project)


def installation() -> str:
    """This installation's `cupcake` launcher (what local and user scope write)."""
    from cupcake.agents.hook_command import installation_executable

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
