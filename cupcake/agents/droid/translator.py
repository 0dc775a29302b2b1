"""Factory droid as the translator of ``cupcake init --agent droid``.

``droid exec [--agent-command's own options] -f <prompt file> -o json --auto low --settings <file>``
in the project root. A correction repeats the whole task after the problems: droid 0.225's
``exec -s <session_id>`` exited 1 without a word for the session it had just written (offline, with
a custom model), so no session is resumed.

* Hooks: ``--settings`` merges a settings file for this process only; it holds
  ``{"hooks": {"hooksDisabled": true}}``, so the project's and the user's hooks stay off (droid 0.225
  ignores ``enableHooks: false`` there: the real client ran a project hook with it).
* Writes: ``--auto low`` allows file creation and edits outside system directories and nothing
  riskier; droid has no per-file permission, so the temporary policy files are named in the prompt
  and Cupcake only reads those back.
* The answer: droid's JSON result (``result``, ``session_id``, ``is_error``).
"""

from __future__ import annotations

import os

from cupcake.agents.headless import Headless, json_lines, write_json

HOOKS_OFF = {"hooks": {"hooksDisabled": True}}


class DroidTranslator(Headless):
    name = "droid"
    program = "droid"
    prompt_on_stdin = False
    resumes = False

    def argv(self, prompt: str, prompt_file: str) -> list[str]:
        settings = write_json(os.path.join(os.path.dirname(prompt_file), "settings.json"), HOOKS_OFF)
        argv = [self.words[0], "exec", *self.words[1:], "-f", prompt_file, "-o", "json", "--auto", "low"]
        argv += ["--settings", settings]
        return argv

    def read(self, stdout: str):
        text, session, error = "", None, None
        for result in json_lines(stdout):
            if isinstance(result.get("session_id"), str):
                session = result["session_id"]
            if isinstance(result.get("result"), str):
                text = result["result"]
            if result.get("is_error"):
                error = text or str(result.get("subtype") or "is_error")
        return text, session, error


Translator = DroidTranslator  # what ``agents.translator("droid")`` returns
