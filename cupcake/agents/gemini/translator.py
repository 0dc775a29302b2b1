"""Gemini CLI as the translator of ``cupcake init --agent gemini``.

``gemini [--agent-command's own options] -p "…" --output-format json --approval-mode auto_edit``
with the prompt on stdin (``-p`` text is appended to it), in the project root; a correction resumes
the session (``--resume <session_id>``).

* Hooks: Gemini CLI has no flag for it, so the run gets its own system settings file
  (``GEMINI_CLI_SYSTEM_SETTINGS_PATH``, the settings that override all others): the person's system
  settings, if any, with ``hooksConfig.enabled = false``.
* Writes: ``auto_edit`` approves only the edit tools (``write_file``, ``replace``), which stay inside
  the workspace; headless Gemini does not offer its shell tool outside ``yolo``. A policy file
  (``--policy``) denies those edit tools for any file but the temporary policy files.
* Headless Gemini runs only in a trusted folder (``gemini`` itself, ``--skip-trust`` or
  ``GEMINI_CLI_TRUST_WORKSPACE``); Cupcake does not trust the folder on the person's behalf.
"""

from __future__ import annotations

import json
import os

from cupcake.agents.headless import Headless, as_dict, json_lines, write_json

SYSTEM_SETTINGS = "/etc/gemini-cli/settings.json"
FINISH = "Do the task given above."


class GeminiTranslator(Headless):
    name = "Gemini CLI"
    program = "gemini"

    def argv(self, prompt: str, prompt_file: str) -> list[str]:
        self._private_dir()
        argv = list(self.words) + ["-p", FINISH, "--output-format", "json", "--approval-mode", "auto_edit"]
        argv += ["--policy", self._policy()]
        if self.session_id:
            argv += ["--resume", self.session_id]
        return argv

    def environment(self) -> dict:
        env = dict(self.env)
        env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] = self._settings(env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH"))
        return env

    def _private_dir(self) -> str:
        """Gemini skips a system settings file below a directory others may write (such as /tmp), so
        the run's own files go in a private directory under ~/.gemini, removed when the run ends."""
        made: str | None = getattr(self, "_dir", None)
        if made and os.path.isdir(made):
            return made
        import atexit
        import shutil
        import tempfile

        base = os.path.join(os.path.expanduser(self.env.get("HOME") or "~"), ".gemini")
        os.makedirs(base, mode=0o700, exist_ok=True)
        self._dir = tempfile.mkdtemp(prefix="cupcake-translate-", dir=base)
        atexit.register(shutil.rmtree, self._dir, True)
        return self._dir

    def _settings(self, current: str | None) -> str:
        settings: dict = {}
        try:
            with open(current or SYSTEM_SETTINGS, encoding="utf-8") as f:
                loaded = json.load(f)
            settings = as_dict(loaded)
        except (OSError, ValueError):
            pass
        hooks = as_dict(settings.get("hooksConfig"))
        settings["hooksConfig"] = dict(hooks, enabled=False)
        return write_json(os.path.join(self._private_dir(), "system-settings.json"), settings)

    def _policy(self) -> str:
        """Edit tools allowed on the temporary files only: a deny for every other path, above the allow."""
        rules = []
        for target in self.targets:
            rules.append(
                '[[rule]]\ntoolName = ["write_file", "replace"]\n'
                f"argsPattern = {json.dumps(_path_pattern(target.tmp))}\n"
                'decision = "allow"\npriority = 900\n'
            )
        rules.append('[[rule]]\ntoolName = ["write_file", "replace"]\ndecision = "deny"\npriority = 800\n')
        path = os.path.join(self._private_dir(), "translate-policy.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(rules))
        return path

    def read(self, stdout: str):
        for result in json_lines(stdout):
            text = result.get("response") if isinstance(result.get("response"), str) else ""
            session = result.get("session_id") if isinstance(result.get("session_id"), str) else None
            error = result.get("error")
            if isinstance(error, dict):
                error = error.get("message") or json.dumps(error)
            return text, session, (str(error) if error else None)
        return "", None, None


def _path_pattern(path: str) -> str:
    """A regular expression for the tool arguments naming exactly ``path`` (as JSON text)."""
    escaped = "".join("\\" + c if c in "\\.^$*+?()[]{}|/" else c for c in json.dumps(path)[1:-1])
    return f'"file_path":"{escaped}"'


Translator = GeminiTranslator  # what ``agents.translator("gemini")`` returns
