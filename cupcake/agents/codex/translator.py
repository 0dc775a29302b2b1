"""OpenAI Codex as the translator of ``cupcake init --agent codex``.

``codex exec [--agent-command's own options] --json --skip-git-repo-check --disable hooks
-c sandbox_mode="workspace-write" -c approval_policy="never" -`` with the prompt on stdin, in the
project root; a correction goes to the same thread (``codex exec resume … <thread_id> -``).

* Hooks: the feature ``hooks`` is turned off for the run (``--disable hooks``), so neither the
  project's nor the user's hooks (Cupcake among them) judge the translation.
* Writes: Codex has no per-file permission; its ``workspace-write`` sandbox confines what it writes to
  the project root (and the temporary directory). Cupcake only ever reads back the temporary policy
  files it named; anything else the agent wrote stays visible in ``git status``.
* The answer: the last ``agent_message`` item of the JSONL events; the thread from ``thread.started``.
"""

from __future__ import annotations

from cupcake.agents.headless import Headless, as_dict, json_lines

OPTIONS = (
    "--json",
    "--skip-git-repo-check",
    "--disable",
    "hooks",
    "-c",
    'sandbox_mode="workspace-write"',
    "-c",
    'approval_policy="never"',
)


class CodexTranslator(Headless):
    name = "Codex"
    program = "codex"

    def argv(self, prompt: str, prompt_file: str) -> list[str]:
        head = [self.words[0], "exec"]
        if self.session_id:
            head.append("resume")
        tail = [self.session_id, "-"] if self.session_id else ["-"]
        return head + self.words[1:] + list(OPTIONS) + tail

    def read(self, stdout: str):
        text, thread, error = "", None, None
        for event in json_lines(stdout):
            kind = event.get("type")
            if kind == "thread.started" and isinstance(event.get("thread_id"), str):
                thread = event["thread_id"]
            elif kind == "item.completed":
                item = as_dict(event.get("item"))
                if item.get("type") == "agent_message" and isinstance(item.get("text"), str):
                    text = item["text"]
            elif kind in ("turn.failed", "error"):
                error = str(as_dict(event.get("error")).get("message") or event.get("message") or kind)
        return text, thread, error


Translator = CodexTranslator  # what ``agents.translator("codex")`` returns
