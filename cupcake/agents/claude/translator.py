"""Claude Code as the translator of ``cupcake init``: run headless, with the project's hooks off and
only the temporary policy files writable, and corrected in the same session (``--resume``).

``claude -p --output-format json --settings '{"disableAllHooks": true}' --allowedTools Edit(./<tmp>)…``
with the prompt on stdin, in the project root. Its JSON result names the session and what it was refused."""

from __future__ import annotations

import json

from cupcake.agents.headless import Agent, Reply, failure, tail
from cupcake.agents.process import run_process

HOOKS_OFF = json.dumps({"disableAllHooks": True})


class ClaudeCode(Agent):
    name = "Claude Code"
    program = "claude"

    def __init__(self, words, root, targets, env, timeout):
        super().__init__(words, root, targets, env, timeout)
        self.session_id = None

    def argv(self) -> list[str]:
        allowed = ",".join(f"Edit(./{t.tmp_name})" for t in self.targets)
        argv = self.words + ["-p", "--output-format", "json", "--settings", HOOKS_OFF, "--allowedTools", allowed]
        if self.session_id:
            argv += ["--resume", self.session_id]
        return argv

    def first(self, prompt: str, attempt: int) -> Reply:
        return self._run(prompt)

    def again(self, correction: str, task: str, attempt: int) -> Reply:
        return self._run(correction if self.session_id else correction + "\n\n---\n\n" + task)

    def _run(self, prompt: str) -> Reply:
        done = run_process(self.argv(), prompt, cwd=self.root, env=self.env, timeout=self.timeout)
        try:
            result = json.loads(done.stdout)
        except ValueError:
            result = None
        if not isinstance(result, dict):
            if done.exit_code == 0:
                return Reply(False, problem=f"Claude Code printed no JSON result:\n{tail(done.stdout)}")
            return Reply(False, problem=failure(self.name, done))
        if isinstance(result.get("session_id"), str):
            self.session_id = result["session_id"]
        given = result.get("result")
        text = given if isinstance(given, str) else ""
        if result.get("is_error") or done.exit_code != 0:
            return Reply(
                False, text, problem=f"Claude Code reported an error: {tail(text) or failure(self.name, done)}"
            )
        denied = [
            d.get("tool_input", {}).get("file_path") or d.get("tool_name")
            for d in result.get("permission_denials") or []
        ]
        if denied:
            text += "\n\n(Claude Code was refused: " + ", ".join(str(d) for d in denied) + ")"
        return Reply(True, text, session_id=self.session_id)


Translator = ClaudeCode  # what ``agents.translator("claude")`` returns
