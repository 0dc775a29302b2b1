"""A scripted stand-in for the Anthropic Messages API, for driving the real Claude Code client.

The client streams every model call as ``POST /v1/messages?beta=true`` with ``"stream": true``.
Main-loop requests (the ones offering ``tools``) get the next scripted assistant turn; side
requests without tools (titles, summaries, ...) get a short "ok". Every request is kept, so a
test can read exactly what the model was shown.

Pure stdlib; listens on 127.0.0.1 only, on a free port; ``stop()`` (or leaving the ``with``
block) shuts it down, and a watchdog stops it anyway after ``max_lifetime`` seconds.
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from cupcake.live.loopback import LoopbackServer


@dataclass(frozen=True)
class ToolUse:
    """An assistant turn that calls one tool."""

    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Text:
    """An assistant turn that ends the session with a text answer."""

    text: str


Turn = ToolUse | Text


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any  # parsed JSON, or the raw text when it was not JSON

    @property
    def is_main_loop(self) -> bool:
        return isinstance(self.body, dict) and bool(self.body.get("tools"))


def _text_of(content: Any) -> str:
    """The text of a message or tool_result ``content`` (a string or a list of blocks)."""
    if isinstance(content, str):
        return content
    parts = []
    for block in content or []:
        if isinstance(block, dict) and block.get("type") == "text":
            parts.append(block.get("text", ""))
    return "\n".join(parts)


@dataclass
class ToolResult:
    """What the model was shown for one tool call."""

    tool_use_id: str
    text: str
    is_error: bool


@dataclass
class ScriptedMessagesAPI(LoopbackServer):
    script: list[Turn] = field(default_factory=list)
    final_text: str = "Done."
    max_lifetime: float = 300.0
    requests: list[RecordedRequest] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._turns = iter(self.script)
        self._ids = itertools.count(1)
        self.thread_name = "messages-api-standin"

    # -- lifecycle (LoopbackServer) -----------------------------------------------------

    def handler(self) -> type[_Handler]:
        api = self

        class Handler(_Handler):
            owner = api

        return Handler

    # -- the script --------------------------------------------------------------------

    def _next_turn(self) -> Turn:
        with self._lock:
            return next(self._turns, Text(self.final_text))

    def _new_tool_use_id(self) -> str:
        with self._lock:
            return f"toolu_{next(self._ids):02d}"

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    # -- what the model was shown ------------------------------------------------------

    @property
    def main_loop_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.is_main_loop]

    def tool_results(self) -> list[ToolResult]:
        """Every tool_result the client sent back, first seen first, one per tool call."""
        seen: dict[str, ToolResult] = {}
        for request in self.main_loop_requests:
            for message in request.body.get("messages", []):
                if message.get("role") != "user" or isinstance(message.get("content"), str):
                    continue
                for block in message["content"]:
                    if block.get("type") == "tool_result" and block["tool_use_id"] not in seen:
                        seen[block["tool_use_id"]] = ToolResult(
                            block["tool_use_id"], _text_of(block.get("content")), bool(block.get("is_error"))
                        )
        return list(seen.values())

    def everything_shown(self) -> str:
        """All the text of the last main-loop request: system prompt, messages, tool results, hook context."""
        if not self.main_loop_requests:
            return ""
        body = self.main_loop_requests[-1].body
        texts = [_text_of(body.get("system"))]
        for message in body.get("messages", []):
            content = message.get("content")
            texts.append(_text_of(content))
            if isinstance(content, list):
                texts += [_text_of(b.get("content")) for b in content if b.get("type") == "tool_result"]
        return "\n".join(t for t in texts if t)

    def summary(self) -> str:
        return ", ".join(f"{r.method} {r.path}{' (tools)' if r.is_main_loop else ''}" for r in self.requests)


def _sse(event: str, data: dict[str, Any]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _message_events(model: str, turn: Turn, tool_use_id: str | None) -> list[bytes]:
    usage = {"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    events = [
        _sse(
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": f"msg_standin_{tool_use_id or 'text'}",
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": usage,
                },
            },
        )
    ]
    if isinstance(turn, ToolUse):
        block: dict[str, Any] = {"type": "tool_use", "id": tool_use_id, "name": turn.name, "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps(turn.input)}
        stop_reason = "tool_use"
    else:
        block = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": turn.text}
        stop_reason = "end_turn"
    events += [
        _sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
        _sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        _sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        _sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        ),
        _sse("message_stop", {"type": "message_stop"}),
    ]
    return events


def _message_json(model: str, turn: Turn, tool_use_id: str | None) -> dict[str, Any]:
    if isinstance(turn, ToolUse):
        content = [{"type": "tool_use", "id": tool_use_id, "name": turn.name, "input": turn.input}]
        stop_reason = "tool_use"
    else:
        content = [{"type": "text", "text": turn.text}]
        stop_reason = "end_turn"
    return {
        "id": f"msg_standin_{tool_use_id or 'text'}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


class _Handler(BaseHTTPRequestHandler):
    owner: ScriptedMessagesAPI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # the recorded requests are the log
        pass

    def _read_body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return raw.decode(errors="replace")

    def _send_json(self, status: int, payload: Any) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _handle(self) -> None:
        body = self._read_body() if self.command in ("POST", "PUT", "PATCH") else None
        request = RecordedRequest(self.command, self.path, dict(self.headers.items()), body)
        self.owner._record(request)
        route = self.path.split("?", 1)[0].rstrip("/")
        if self.command == "POST" and route == "/v1/messages" and isinstance(body, dict):
            self._answer_messages(request)
        elif route == "/v1/messages/count_tokens":
            self._send_json(200, {"input_tokens": 10})
        elif self.command == "HEAD":
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:  # probes and anything unforeseen: a harmless empty answer (it is still recorded)
            self._send_json(200, {})

    def _answer_messages(self, request: RecordedRequest) -> None:
        model = request.body.get("model", "claude-standin")
        turn: Turn = self.owner._next_turn() if request.is_main_loop else Text("ok")
        tool_use_id = self.owner._new_tool_use_id() if isinstance(turn, ToolUse) else None
        if not request.body.get("stream"):
            self._send_json(200, _message_json(model, turn, tool_use_id))
            return
        payload = b"".join(_message_events(model, turn, tool_use_id))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = do_HEAD = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = _handle
