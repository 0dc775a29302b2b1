"""Canonical payloads (Claude Code's shape, the canonical one) for the commands that replay or invent
events (``cupcake test``, ``explain``, ``replay``): a tool call's payload, the environment the hook
sees, the tool calls of a Claude Code transcript, an audit record turned back into a payload."""

from __future__ import annotations

from cupcake import jsonio
from cupcake.agents import DEFAULT, adapter
from cupcake.agents.event import Event


def tool_call(
    event: str, tool, tool_input, cwd: str, session: str | None = "cupcake-test", transcript: str = ""
) -> dict:
    """The payload Claude Code sends for one tool call (or, with ``tool`` None, one event)."""
    payload: dict = {"hook_event_name": event, "session_id": session, "transcript_path": transcript, "cwd": cwd}
    if tool is not None:
        payload["tool_name"] = tool
        payload["tool_input"] = tool_input if isinstance(tool_input, dict) else {}
    return payload


def completed(payload: dict, cwd: str, session: str = "cupcake-test") -> dict:
    """A payload given by a person, with the event, directory and session filled in when missing."""
    payload = dict(payload)
    payload.setdefault("hook_event_name", "PreToolUse")
    if not isinstance(payload.get("cwd"), str):
        payload["cwd"] = cwd
    payload.setdefault("session_id", session)
    return payload


def event_of(payload: dict) -> Event:
    """The canonical event of a Claude Code payload (no ``--event``: the payload names it)."""
    return Event(payload.get("hook_event_name") or "PreToolUse", payload)


def with_project(env, root: str) -> dict:
    """``env`` as the hook sees it in the project at ``root``."""
    env = dict(env)
    for name in adapter(DEFAULT).PROJECT_DIR_ENV:
        env[name] = root
    return env


# What ``from_audit`` and ``transcript_calls`` give back as it was sent, as a field condition's path
# names it (``cupcake replay`` judges nothing else): the event, the tool and the session; a transcript
# also the tool's whole input and the directory.
KEPT_FIELDS = ("hook_event_name", "tool_name", "session_id")
TRANSCRIPT_FIELDS = ("tool_input", "cwd")
INPUT_FIELD = "tool_input"


def from_audit(record: dict) -> dict:
    """An audit record's tool call as a payload (the record keeps a masked summary of the input)."""
    summary = record.get("input") or {}
    tool_input = {k: v for k, v in summary.items() if k in ("command", "file_path", "path", "pattern", "url")}
    payload = tool_call(record.get("event") or "PreToolUse", record.get("tool"), tool_input, "", record.get("session"))
    del payload["cwd"]
    return payload


def transcript_calls(path: str, since=None):
    """(payload, time) for each ``tool_use`` of a Claude Code transcript (``.jsonl``)."""
    with open(path, "rb") as f:
        for raw in f:
            try:
                line = jsonio.loads(raw)  # a long session's transcript: thousands of lines
            except ValueError:
                continue
            if not isinstance(line, dict):
                continue
            stamp = line.get("timestamp")
            if since and isinstance(stamp, str) and stamp < since:
                continue
            message = line.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            for part in content if isinstance(content, list) else ():
                if isinstance(part, dict) and part.get("type") == "tool_use" and isinstance(part.get("name"), str):
                    tool_input = part.get("input") if isinstance(part.get("input"), dict) else {}
                    given_cwd = line.get("cwd")
                    cwd = given_cwd if isinstance(given_cwd, str) else ""
                    payload = tool_call("PreToolUse", part["name"], tool_input, cwd, line.get("sessionId"))
                    yield payload, stamp
