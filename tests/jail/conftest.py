"""Running commands in Cupcake's jail the way an agent does: the installed ``cupcake run --jail`` answers
a shell call, and real bash runs the command the answer names, in the project.

Linux with bubblewrap only (CI installs it); elsewhere these tests skip, and under CI=true a missing
bubblewrap fails them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import Project
from tests.jail.scripts import OPAQUE

IN_CI = os.environ.get("CI", "").lower() == "true"
BWRAP = "/usr/bin/bwrap"
# The hook layer is off in these projects, so that only the OS layer stands between a command and the
# protected files (a real project has both: the hook blocks what it can read, the jail holds the rest).
POLICY = (
    "[settings]\nself_protection = false\n\n"
    '[[policy]]\nname = "no-deploy"\nmatcher = "Bash"\n'
    "conditions = [{ type = \"command_regex\", value = '^deploy-prod' }]\n"
    'action = { type = "block_with_feedback", feedback_message = "No deploys from here." }\n'
)


def need_bwrap() -> None:
    if sys.platform.startswith("linux") and os.access(BWRAP, os.X_OK):
        return
    if IN_CI:
        pytest.fail("CI=true: the jail tests need bubblewrap at /usr/bin/bwrap", pytrace=False)
    pytest.skip("the jail needs Linux and bubblewrap")


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str


class Jail:
    """A project under Cupcake with the OS layer on (the Codex adapter: the simplest shell call)."""

    def __init__(self, project: Project):
        self.project = project
        project.write_policy(POLICY)
        (project.root / "tool.py").write_text(OPAQUE)

    def answer(self, command: str, *, agent_args=("--agent", "codex"), net: bool = False):
        payload = self.project.tool_call("Bash", {"command": command})
        flag = "--jail-unshare-net" if net else "--jail"
        return self.project.send_process(payload, args=["--event", "PreToolUse", *agent_args, flag])

    def command(self, command: str, *, net: bool = False) -> str:
        """The command Cupcake answers with for ``command`` (it must be allowed and jailed)."""
        answer = self.answer(command, net=net)
        assert answer.code == 0, answer
        specific = answer.specific
        assert specific.get("permissionDecision") == "allow", answer
        jailed = specific["updatedInput"]["command"]
        assert jailed != command
        return jailed

    def run(self, command: str, *, stdin: bytes | None = None, env=None, cwd=None, net=False, timeout=60) -> Ran:
        """``command`` run as the agent would, through Cupcake's answer: ``bash -c <jailed>``."""
        jailed = self.command(command, net=net)
        return self.bash(jailed, stdin=stdin, env=env, cwd=cwd, timeout=timeout)

    def bash(self, line: str, *, stdin: bytes | None = None, env=None, cwd=None, timeout=60) -> Ran:
        environment = {**self.project.env(), **(env or {})}
        done = subprocess.run(
            ["/bin/bash", "-c", line],
            input=stdin if stdin is not None else b"",
            capture_output=True,
            cwd=cwd or self.project.root,
            env=environment,
            timeout=timeout,
        )
        return Ran(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))

    @property
    def policy(self) -> Path:
        return self.project.root / "cupcake.toml"


@pytest.fixture
def jail(project) -> Jail:
    need_bwrap()
    return Jail(project)


def decoded(answer) -> dict:
    return json.loads(answer.stdout) if answer.stdout.strip() else {}
