"""A trivial hook for proving the harness: it saves its stdin, then answers what the test told it to.

hook = RecordingHook.create(tmp_path / "hook")
hook.reply("PreToolUse", '{"hookSpecificOutput": ...}')    # else: silent, exit 0
session.write_hooks(hook.command)
... hook.payloads("PreToolUse") -> [dict, ...]
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCRIPT = """\
import os, sys, time
record, event = sys.argv[1], sys.argv[2]
data = sys.stdin.buffer.read(1 << 24)
name = "%s.%020d.%d.json" % (event, time.time_ns(), os.getpid())
with open(os.path.join(record, name), "wb") as out:
    out.write(data)
reply = os.path.join(record, "reply." + event)
if os.path.exists(reply):
    with open(reply, "rb") as answer:
        sys.stdout.buffer.write(answer.read())
code = os.path.join(record, "exit." + event)
sys.exit(int(open(code).read()) if os.path.exists(code) else 0)
"""


@dataclass
class RecordingHook:
    directory: Path
    script: Path

    @classmethod
    def create(cls, directory: Path) -> RecordingHook:
        directory.mkdir(parents=True, exist_ok=True)
        script = directory / "recording_hook.py"
        script.write_text(SCRIPT)
        return cls(directory, script)

    def command(self, event: str) -> list[str]:
        """The hook command for ``event`` (pass the method itself as a session's hook command)."""
        return [sys.executable, "-S", str(self.script), str(self.directory), event]

    def reply(self, event: str, stdout: str, exit_code: int = 0) -> None:
        (self.directory / f"reply.{event}").write_text(stdout)
        (self.directory / f"exit.{event}").write_text(str(exit_code))

    def events(self) -> list[str]:
        """The events that fired, in the order their hooks started."""
        files = sorted(self.directory.glob("*.json"), key=lambda p: p.name.split(".")[1])
        return [p.name.split(".", 1)[0] for p in files]

    def payloads(self, event: str) -> list[dict[str, Any]]:
        return [json.loads(p.read_text()) for p in sorted(self.directory.glob(f"{event}.*.json"))]


def with_placeholders(value: Any, home: Path, project: Path) -> Any:
    """``value`` with the throwaway project and HOME written as /home/dev/project and /home/dev."""
    if isinstance(value, dict):
        return {key: with_placeholders(item, home, project) for key, item in value.items()}
    if isinstance(value, list):
        return [with_placeholders(item, home, project) for item in value]
    if isinstance(value, str):
        value = value.replace(str(project), "/home/dev/project").replace(str(home), "/home/dev")
        return value.replace(str(project).replace("/", "-"), "-home-dev-project")  # droid's session folder
    return value
