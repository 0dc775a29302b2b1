"""What the headless translators of ``cupcake init --agent NAME`` share: one run of the agent's CLI in
the project root, its machine-readable output read for the final answer and the session to resume,
and a correction sent to that same session when the agent named one.

Each agent's own class (``cupcake/agents/<name>/translator.py``) says how its CLI is called, how its
hooks are kept off while it translates, and what it may write."""

from __future__ import annotations

import json
import os
import tempfile

from cupcake.agents.process import run_process

MAX_ARGUMENT = 100_000  # bytes: Linux refuses one argument longer than 128 KiB


class Reply:
    """What one run of the agent came to."""

    __slots__ = ("ok", "text", "problem", "session_id")

    def __init__(self, ok: bool, text: str = "", problem: str | None = None, session_id: str | None = None):
        self.ok = ok
        self.text = text  # the agent's final answer, for the person
        self.problem = problem  # why the run failed
        self.session_id = session_id


def tail(text: str, limit: int = 2000) -> str:
    text = text.strip()
    return text if len(text) <= limit else "…" + text[-limit:]


def failure(name: str, done) -> str:
    if done.not_started:
        return f"{name} could not start: {done.not_started}"
    if done.timed_out:
        return f"{name} did not finish in time and was stopped"
    output = tail(done.stderr) or tail(done.stdout)
    return f"{name} exited with code {done.exit_code}" + (f":\n{output}" if output else "")


class Agent:
    """What every agent is run with: its command words, the project root, the files it may write."""

    def __init__(self, words, root, targets, env, timeout):
        self.words = words
        self.root = root
        self.targets = targets
        self.env = env
        self.timeout = timeout


class Headless(Agent):
    """One agent CLI run headless; subclasses give ``argv`` and ``read``."""

    name = "the agent"
    program = ""  # the executable's usual name
    prompt_on_stdin = True
    resumes = True  # a correction goes to the session of the first run

    def __init__(self, words, root, targets, env, timeout):
        super().__init__(words, root, targets, env, timeout)
        self.session_id = None

    # -- for each agent -----------------------------------------------------------

    def argv(self, prompt: str, prompt_file: str) -> list[str]:
        """The command line; ``prompt_file`` sits in a private directory, where the files the run is given
        (settings) go too."""
        raise NotImplementedError

    def environment(self) -> dict:
        return dict(self.env)

    def read(self, stdout: str) -> tuple[str, str | None, str | None]:
        """(final answer, session id, the error the agent reported) from its output."""
        raise NotImplementedError

    # -- shared -------------------------------------------------------------------

    def first(self, prompt: str, attempt: int) -> Reply:
        return self._run(prompt)

    def again(self, correction: str, task: str, attempt: int) -> Reply:
        return self._run(correction if self.session_id else correction + "\n\n---\n\n" + task)

    def _run(self, prompt: str) -> Reply:
        with tempfile.TemporaryDirectory(prefix="cupcake-translate-") as scratch:
            prompt_file = os.path.join(scratch, "prompt.md")
            with open(prompt_file, "w", encoding="utf-8") as f:
                f.write(prompt)
            argv = self.argv(prompt, prompt_file)
            stdin = prompt if self.prompt_on_stdin else None
            done = run_process(argv, stdin, cwd=self.root, env=self.environment(), timeout=self.timeout)
        text, session_id, error = self.read(done.stdout)
        if session_id and self.resumes:
            self.session_id = session_id
        if done.exit_code != 0 or done.timed_out or done.not_started:
            return Reply(False, text, problem=failure(self.name, done))
        if error:
            return Reply(False, text, problem=f"{self.name} reported an error: {tail(error)}")
        return Reply(True, text, session_id=self.session_id)


def prompt_argument(prompt: str, prompt_file: str) -> str:
    """The prompt itself as one argument, or, too long for one, a pointer to the file that holds it."""
    if len(prompt.encode()) <= MAX_ARGUMENT:
        return prompt
    return f"Your whole task is in the file {prompt_file}. Read it and do exactly what it says."


def json_lines(text: str) -> list[dict]:
    """Each line of ``text`` that is a JSON object (the whole text first, as one document)."""
    try:
        whole = json.loads(text)
    except ValueError:
        whole = None
    if isinstance(whole, dict):
        return [whole]
    found = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def as_dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def write_json(path: str, data) -> str:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return path
