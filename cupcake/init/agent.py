"""The agent that writes the policy files: an agent run headless (the default agent, Claude Code, unless
``--agent`` names another), or any command.

Each agent's translator (``cupcake/agents/<name>/translator.py``, chosen through ``agents.translator``)
runs its CLI in the project root with the prompt, its own hooks off (the project's hooks, Cupcake among
them, do not judge the translation), and only the temporary policy files writable; a correction goes to
the same session when the agent names one.

Any other command gets the prompt on stdin, or in place of an argument ``{prompt}``, or as the path
of a file for an argument ``{prompt_file}``; it runs in the project root with
``CUPCAKE_INIT_ATTEMPT``, ``CUPCAKE_INIT_PROJECT_FILE`` and ``CUPCAKE_INIT_USER_FILE`` (the files
to write) in its environment. Without a session to resume, a correction repeats the whole task after
the problems. Its standard output is shown to the person as the agent's answer.
"""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile

from cupcake import agents
from cupcake.agents.headless import MAX_ARGUMENT, Agent, Reply, failure
from cupcake.agents.process import run_process


class AgentUnavailable(Exception):
    """The agent's program is not there: say so and offer the template."""


def make_agent(command: str | None, root: str, targets, env: dict, timeout: float, agent: str | None = None):
    """``agent`` (one of ``agents.HEADLESS``) picks the translator; ``command`` then only replaces its
    program and adds options (e.g. a path, or ``-c key=value`` for Codex). Without ``agent``, a command
    whose program is the default agent's runs as that agent, any other as a plain ``Command``."""
    if agent is not None and agent not in agents.HEADLESS:
        raise AgentUnavailable(f"no translator for agent {agent!r} (known: {', '.join(agents.HEADLESS)})")
    translator = agents.translator(agent or agents.DEFAULT)
    words = shlex.split(command) if command else [translator.program]
    if not words:
        raise AgentUnavailable("--agent-command is empty")
    program = _find(words[0], root, env)
    if program is None:
        raise AgentUnavailable(f"`{words[0]}` was not found on PATH")
    words[0] = program
    if agent is None and os.path.basename(program) != translator.program:
        return Command(words, root, targets, env, timeout)
    return translator(words, root, targets, env, timeout)


def _find(program: str, root: str, env: dict):
    if "/" in program:
        path = os.path.abspath(os.path.expanduser(program))  # as the person typed it, from where they are
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which(program, path=env.get("PATH", os.defpath))


class Command(Agent):
    """Any program that takes a prompt."""

    def __init__(self, words, root, targets, env, timeout):
        super().__init__(words, root, targets, env, timeout)
        self.name = f"`{os.path.basename(words[0])}`"

    def first(self, prompt: str, attempt: int) -> Reply:
        return self._run(prompt, attempt)

    def again(self, correction: str, task: str, attempt: int) -> Reply:
        return self._run(correction + "\n\n---\n\nThe task, as you were first given it:\n\n" + task, attempt)

    def _run(self, prompt: str, attempt: int) -> Reply:
        env = dict(self.env)
        env["CUPCAKE_INIT_ATTEMPT"] = str(attempt)
        for target in self.targets:
            env[f"CUPCAKE_INIT_{target.scope.upper()}_FILE"] = target.tmp
        with tempfile.TemporaryDirectory(prefix="cupcake-prompt-") as scratch:
            prompt_file = os.path.join(scratch, "prompt.md")
            with open(prompt_file, "w", encoding="utf-8") as f:
                f.write(prompt)
            argv: list[str] = []
            stdin: str | None = prompt
            for word in self.words:
                if "{prompt}" in word:
                    if len(prompt.encode()) > MAX_ARGUMENT:
                        return Reply(
                            False,
                            problem="the prompt is too long for one argument: "
                            "use {prompt_file} or standard input instead of {prompt}",
                        )
                    word, stdin = word.replace("{prompt}", prompt), None
                if "{prompt_file}" in word:
                    word, stdin = word.replace("{prompt_file}", prompt_file), None
                argv.append(word)
            done = run_process(argv, stdin, cwd=self.root, env=env, timeout=self.timeout)
        if done.exit_code != 0:
            return Reply(False, problem=failure(self.name, done))
        return Reply(True, done.stdout.strip())
