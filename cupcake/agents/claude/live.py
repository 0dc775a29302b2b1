"""Claude Code run headless for `cupcake doctor --live` (as seen with 2.1.328: `claude -p`, the model's
address in ANTHROPIC_BASE_URL, a placeholder key, non-essential traffic off)."""

from __future__ import annotations

from cupcake.live import DEFAULT_TIMEOUT, KEY


class Runner:
    agent, display, program = "claude", "Claude Code", "claude"
    install = "npm install -g @anthropic-ai/claude-code"

    def prepare(self, home: str) -> None:
        pass

    def standin(self, script):
        from cupcake.live.messages_api import ScriptedMessagesAPI, Text, ToolUse

        turns = [ToolUse("Bash", {"command": c}) for c in script] + [Text("Done.")]
        return ScriptedMessagesAPI(turns, max_lifetime=DEFAULT_TIMEOUT * 3)

    def shown(self, standin) -> list[str]:
        return [r.text for r in standin.tool_results()]

    def command(self, executable: str, prompt: str) -> list[str]:
        return [executable, "-p", prompt, "--output-format", "json", "--allowedTools", "Bash"]

    def environment(self, base_url: str) -> dict:
        return {
            "ANTHROPIC_BASE_URL": base_url,
            "ANTHROPIC_API_KEY": KEY,
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
        }
