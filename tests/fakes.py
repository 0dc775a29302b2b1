"""A small fake context for one system at a time (the ``fakes`` fixture of tests/systems and
tests/evaluator_findings): a real ``Context`` with a stand-in adapter, the
policies compiled from a few lines of TOML, and the event as input parse would have left it. Each
system's test calls ``should_process`` and ``process`` on it directly, with no process, no cache and
no other system (the whole run is tested through the installed executable elsewhere)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from cupcake.agents.event import Event
from cupcake.pipeline.context import Context


def fake_agent(**overrides) -> SimpleNamespace:
    """The adapter surface the systems read: its name and tables, parse, render, the project dir."""

    def parse(payload, event_arg, env):
        name = event_arg or payload.get("hook_event_name")
        if name == "Nonsense":
            raise ValueError("no such event")
        return name, payload, env.get("FAKE_PROJECT_DIR")

    def render(event, payload, response, warnings):
        body = {"event": event, "decision": response.decision if response else None, "warnings": list(warnings)}
        return json.dumps(body).encode(), b"", 0

    agent = SimpleNamespace(
        NAME="fake",
        CAPABILITIES={"PreToolUse": {}, "PostToolUse": {}, "SessionEnd": {}, "Stop": {}, "UserPromptSubmit": {}},
        ANSWER_CAP=10**6,
        parse=parse,
        render=render,
        project_dir=lambda env: env.get("FAKE_PROJECT_DIR"),
        action_supported=lambda kind, event: event == "PreToolUse",
    )
    for key, value in overrides.items():
        setattr(agent, key, value)
    return agent


class Fakes:
    def __init__(self, tmp_path):
        self.root = tmp_path / "project"
        self.home = tmp_path / "home"
        self.root.mkdir()
        self.home.mkdir()
        self.env = {"HOME": str(self.home), "FAKE_PROJECT_DIR": str(self.root)}

    def compiled(self, toml: str = "") -> dict:
        from cupcake.compile.compiler import compile_files

        path = self.root / "cupcake.toml"
        path.write_text(toml)
        return compile_files([str(path), str(self.home / "none.toml")], str(self.root), self.env)

    def context(
        self,
        toml: str | None = "",
        event: str = "PreToolUse",
        tool: str | None = "Bash",
        tool_input: dict | None = None,
        **payload,
    ) -> Context:
        """A context as it stands after policy load: the event read, the policies (None when ``toml``
        is None: no policy file) and the settings in place."""
        ctx = Context(env=self.env)
        ctx.agent = fake_agent()
        ctx.event = event
        fields = {"hook_event_name": event, "session_id": "s-1", "cwd": str(self.root), **payload}
        if tool is not None:
            fields.update(tool_name=tool, tool_input=tool_input if tool_input is not None else {})
        ctx.payload = fields
        ctx.incoming = Event(event, fields, "fake", str(self.root))
        ctx.root = str(self.root)
        if toml is not None:
            ctx.policies = self.compiled(toml)
            ctx.settings = ctx.policies["settings"]
            ctx.configured = True
        else:
            ctx.configured = False
        return ctx


def policy(name: str, action: str, regex: str = "^rm ", matcher: str = "Bash", event: str = "PreToolUse") -> str:
    """One [[policy]] whose command matches ``regex``."""
    return (
        f'[[policy]]\nname = "{name}"\nhook_event = "{event}"\nmatcher = "{matcher}"\n'
        f'conditions = [{{ type = "command_regex", value = "{regex}" }}]\naction = {action}\n'
    )


BLOCK = '{ type = "block_with_feedback", feedback_message = "Use trash." }'
SOFT = '{ type = "provide_feedback", message = "Careful." }'
ASK = '{ type = "ask", reason = "Sure?" }'
APPROVE = '{ type = "approve", reason = "Fine." }'
CONTEXT = '{ type = "inject_context", text = "House rules." }'
