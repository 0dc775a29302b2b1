"""GitHub Copilot CLI as the translator of ``cupcake init --agent copilot``.

``copilot [--agent-command's own options] -p "<prompt>" --output-format json --allow-tool write
--deny-tool shell --disable-client-telemetry`` in the project root (a prompt too long for one
argument is passed as a file to read); a correction resumes the session (``--resume <id>``).

* Hooks: Copilot loads a repository's hooks (``.github/hooks/*.json``, Cupcake's among them) only in
  a trusted folder, so the run is not given ``--trust-folder`` and ``COPILOT_ALLOW_ALL`` (whose exact
  value ``true`` also trusts the folder) is removed from its environment. Hooks in the person's own
  ``~/.copilot/settings.json`` still run: Copilot has no per-run switch for them (``disableAllHooks``
  lives in that same file).
* Writes: only the ``write`` tool permission is granted and the shell is denied; Copilot's path
  checks keep writes inside the working directory.
"""

from __future__ import annotations

from cupcake.agents.headless import Headless, as_dict, json_lines, prompt_argument

OPTIONS = ("--output-format", "json", "--allow-tool", "write", "--deny-tool", "shell", "--disable-client-telemetry")


class CopilotTranslator(Headless):
    name = "Copilot CLI"
    program = "copilot"
    prompt_on_stdin = False

    def argv(self, prompt: str, prompt_file: str) -> list[str]:
        argv = list(self.words) + ["-p", prompt_argument(prompt, prompt_file), *OPTIONS]
        if self.session_id:
            argv += ["--resume", self.session_id]
        return argv

    def environment(self) -> dict:
        env = dict(self.env)
        env.pop("COPILOT_ALLOW_ALL", None)
        return env

    def read(self, stdout: str):
        text, session, error = "", None, None
        for event in json_lines(stdout):
            data = as_dict(event.get("data"))
            kind = event.get("type")
            for value in (event.get("sessionId"), data.get("sessionId")):
                if isinstance(value, str) and value:
                    session = value
            if kind == "assistant.message" and isinstance(data.get("content"), str) and data["content"]:
                text = data["content"]
            elif kind in ("session.error", "error"):
                error = str(data.get("message") or event.get("message") or kind)
        return text, session, error


Translator = CopilotTranslator  # what ``agents.translator("copilot")`` returns
