"""Gemini CLI run headless for `cupcake doctor --live` (as seen with 0.61.0: the gemini-api-key auth type
in its user settings, a trusted workspace, --approval-mode yolo so its shell tool is offered)."""

from __future__ import annotations

import json
import os

from cupcake.live import DEFAULT_TIMEOUT, KEY


class Runner:
    agent, display, program = "gemini", "Gemini CLI", "gemini"
    install = "npm install -g @google/gemini-cli"

    def prepare(self, home: str) -> None:
        # Headless with only a base URL, the CLI picks the "gateway" auth type and refuses to start (exit 41).
        folder = os.path.join(home, ".gemini")
        os.makedirs(folder, exist_ok=True)
        settings = {
            "privacy": {"usageStatisticsEnabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "security": {"auth": {"selectedType": "gemini-api-key"}},
        }
        with open(os.path.join(folder, "settings.json"), "w", encoding="utf-8") as f:
            json.dump(settings, f)

    def standin(self, script):
        from cupcake.live.gemini_api import GeminiStandin
        from cupcake.live.standin import Shell, Text, ToolCall

        def shell(command: str) -> ToolCall:
            return ToolCall("run_shell_command", {"command": command, "description": "cupcake doctor --live"})

        return GeminiStandin(
            [Shell(c) for c in script] + [Text("Done.")], shell=shell, max_lifetime=DEFAULT_TIMEOUT * 3
        )

    def shown(self, standin) -> list[str]:
        return [r.text for r in standin.tool_results()]

    def command(self, executable: str, prompt: str) -> list[str]:
        # Headless Gemini CLI offers its shell tool to the model only in yolo mode.
        return [executable, "-p", prompt, "--output-format", "json", "--approval-mode", "yolo"]

    def environment(self, base_url: str) -> dict:
        return {"GEMINI_CLI_TRUST_WORKSPACE": "true", "GOOGLE_GEMINI_BASE_URL": base_url, "GEMINI_API_KEY": KEY}
