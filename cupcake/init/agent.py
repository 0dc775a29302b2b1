"""The agent that writes the policy files: headless Claude Code by default, or any command.

Claude Code (the command's program is named ``claude``) runs as
``claude -p --output-format json --settings '{"disableAllHooks": true}' --allowedTools Edit(./<tmp>)…``
with the prompt on stdin, in the project root: the project's own hooks (Cupcake among them) do not
judge the translation, and the only files it may write are the temporary policy files. A correction
goes to the same session (``--resume <session_id>`` from the JSON result).

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

from cupcake.init.process import run_process

DEFAULT_COMMAND = "claude"
MAX_ARGUMENT = 100_000  # bytes: Linux refuses one argument longer than 128 KiB


class AgentUnavailable(Exception):
    """The agent's program is not there: say so and offer the template."""


class Reply:
    """What one run of the agent came to."""

    __slots__ = ("ok", "text", "problem", "session_id")

    def __init__(self, ok: bool, text: str = "", problem: str | None = None, session_id: str | None = None):
        self.ok = ok
        self.text = text  # the agent's final answer, for the person
        self.problem = problem  # why the run failed
        self.session_id = session_id


# ``cupcake init --agent NAME``: the translator class of each agent that can run headless.
TRANSLATORS = {
    "claude": ("cupcake.agents.claude.translator", "ClaudeCode", "claude"),
    "codex": ("cupcake.agents.codex.translator", "CodexTranslator", "codex"),
    "gemini": ("cupcake.agents.gemini.translator", "GeminiTranslator", "gemini"),
    "copilot": ("cupcake.agents.copilot.translator", "CopilotTranslator", "copilot"),
    "droid": ("cupcake.agents.droid.translator", "DroidTranslator", "droid"),
}


def make_agent(command: str | None, root: str, targets, env: dict, timeout: float, agent: str | None = None):
    """``agent`` (a TRANSLATORS name) picks the translator; ``command`` then only replaces its program
    and adds options (e.g. a path, or ``-c key=value`` for Codex)."""
    if agent is not None and agent not in TRANSLATORS:
        raise AgentUnavailable(f"no translator for agent {agent!r} (known: {', '.join(TRANSLATORS)})")
    default = TRANSLATORS[agent][2] if agent else DEFAULT_COMMAND
    words = shlex.split(command) if command else [default]
    if not words:
        raise AgentUnavailable("--agent-command is empty")
    program = _find(words[0], root, env)
    if program is None:
        raise AgentUnavailable(f"`{words[0]}` was not found on PATH")
    words[0] = program
    if agent is not None and agent != "claude":
        module, cls, _ = TRANSLATORS[agent]
        return getattr(__import__(module, fromlist=(cls,)), cls)(words, root, targets, env, timeout)
    if agent == "claude" or os.path.basename(program) == "claude":
        from cupcake.agents.claude.translator import ClaudeCode

        return ClaudeCode(words, root, targets, env, timeout)
    return Command(words, root, targets, env, timeout)


def _find(program: str, root: str, env: dict):
    if "/" in program:
        path = os.path.abspath(os.path.expanduser(program))  # as the person typed it, from where they are
        return path if os.path.isfile(path) and os.access(path, os.X_OK) else None
    return shutil.which(program, path=env.get("PATH", os.defpath))


def _tail(text: str, limit: int = 2000) -> str:
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]


def _failure(name: str, done) -> str:
    if done.not_started:
        return f"{name} could not start: {done.not_started}"
    if done.timed_out:
        return f"{name} did not finish in time and was stopped"
    output = _tail(done.stderr) or _tail(done.stdout)
    return f"{name} exited with code {done.exit_code}" + (f":\n{output}" if output else "")


class _Agent:
    """What every agent is run with: its command words, the project root, the files it may write."""

    def __init__(self, words, root, targets, env, timeout):
        self.words = words
        self.root = root
        self.targets = targets
        self.env = env
        self.timeout = timeout


class Command(_Agent):
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
            return Reply(False, problem=_failure(self.name, done))
        return Reply(True, done.stdout.strip())
