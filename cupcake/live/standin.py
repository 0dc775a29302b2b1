"""What the three model-API stand-ins share: the script, the HTTP server, the record of requests.

A script is a list of turns, one per model answer in the agent's main loop: a tool call, then
eventually a text. The servers keep no state between requests: a main-loop request gets the turn
whose index is the number of tool calls already in its history, so a retried request gets the same
answer again. Side requests (no tools offered: titles, routers, classifiers) get a harmless answer.

Pure stdlib; listens on 127.0.0.1 only, on a free port; ``stop()`` (or leaving the ``with``
block) shuts it down, and a watchdog stops it anyway after ``max_lifetime`` seconds.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from cupcake.live.loopback import LoopbackServer

MAX_BODY_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True)
class ToolCall:
    """A model turn that calls one tool with these arguments."""

    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Shell:
    """A model turn that runs ``command`` with the agent's own shell tool (the session knows its name)."""

    command: str


@dataclass(frozen=True)
class Text:
    """A model turn that ends the agent's turn with a text answer."""

    text: str


Turn = ToolCall | Shell | Text


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it was not JSON


@dataclass(frozen=True)
class ToolResult:
    """What the agent sent the model back for one tool call."""

    call_id: str
    text: str


def value_for_schema(schema: Any) -> Any:
    """A small value a JSON schema accepts: required properties filled, the first enum value, ..."""
    if not isinstance(schema, dict):
        return "x"
    if schema.get("enum"):
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    for union in ("anyOf", "oneOf"):
        if schema.get(union):
            return value_for_schema(schema[union][0])
    kind = schema.get("type", "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    kind = str(kind).lower()
    if kind == "object":
        properties = schema.get("properties") or {}
        return {name: value_for_schema(properties.get(name)) for name in schema.get("required") or []}
    return {"string": "x", "integer": 1, "number": 1, "boolean": False, "array": []}.get(kind)


def complete_arguments(arguments: dict[str, Any], schema: Any) -> dict[str, Any]:
    """``arguments`` plus a value for every required parameter the script left out."""
    filled = dict(arguments)
    if isinstance(schema, dict):
        properties = schema.get("properties") or {}
        for name in schema.get("required") or []:
            filled.setdefault(name, value_for_schema(properties.get(name)))
    return filled


class ScriptedModel(LoopbackServer):
    """The shared part of a stand-in: subclasses route requests and speak one wire format."""

    name = "model-standin"

    def __init__(
        self,
        script: Sequence[Turn],
        *,
        shell: Callable[[str], ToolCall] | None = None,
        final_text: str = "Done.",
        max_lifetime: float = 300.0,
    ) -> None:
        self.script = list(script)
        self.shell = shell
        self.final_text = final_text
        self.max_lifetime = max_lifetime
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self.thread_name = self.name

    # -- lifecycle (LoopbackServer) -----------------------------------------------------

    def handler(self) -> type[_Handler]:
        owner = self

        class Handler(_Handler):
            model = owner

        return Handler

    # -- the script --------------------------------------------------------------------

    def turn(self, calls_so_far: int) -> ToolCall | Text:
        """The answer to a main-loop request whose history already holds ``calls_so_far`` tool calls."""
        turn = self.script[calls_so_far] if calls_so_far < len(self.script) else Text(self.final_text)
        if isinstance(turn, Shell):
            assert self.shell is not None, "this stand-in was not told the agent's shell tool"
            return self.shell(turn.command)
        return turn

    # -- the record --------------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def is_main_loop(self, request: RecordedRequest) -> bool:
        return isinstance(request.body, dict) and bool(request.body.get("tools"))

    @property
    def main_loop_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if self.is_main_loop(r)]

    def results_in(self, request: RecordedRequest) -> list[ToolResult]:  # pragma: no cover - abstract
        raise NotImplementedError

    def tool_results(self) -> list[ToolResult]:
        """Every tool result the agent sent back, first seen first, one per tool call."""
        seen: dict[str, ToolResult] = {}
        for request in self.main_loop_requests:
            for result in self.results_in(request):
                seen.setdefault(result.call_id, result)
        return list(seen.values())

    def summary(self) -> str:
        return ", ".join(f"{r.method} {r.path}{' (tools)' if self.is_main_loop(r) else ''}" for r in self.requests)

    def answer(self, handler: _Handler, request: RecordedRequest) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    @staticmethod
    def answer_other(handler: _Handler, request: RecordedRequest) -> None:
        """Probes and anything unforeseen: a harmless empty answer (the request is still recorded)."""
        if request.method == "HEAD":
            handler.send_response(200)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
        else:
            handler.send_json(200, {})


def sse_data(payload: Any, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(payload)}\n\n".encode()


class _Handler(BaseHTTPRequestHandler):
    model: ScriptedModel
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # the recorded requests are the log
        pass

    def _read_body(self) -> Any:
        length = min(int(self.headers.get("Content-Length") or 0), MAX_BODY_BYTES)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return raw.decode(errors="replace")

    def send_json(self, status: int, payload: Any) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_sse(self, events: list[bytes]) -> None:
        payload = b"".join(events)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _handle(self) -> None:
        body = self._read_body() if self.command in ("POST", "PUT", "PATCH") else None
        request = RecordedRequest(self.command, self.path, dict(self.headers.items()), body)
        self.model._record(request)
        self.model.answer(self, request)

    do_GET = do_POST = do_HEAD = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = _handle
