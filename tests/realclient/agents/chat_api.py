"""A scripted stand-in for the OpenAI Chat Completions API (``POST /v1/chat/completions``, SSE),
as Copilot CLI (BYOK provider) and Factory droid (custom model) call it.

A tool call is one ``chat.completion.chunk`` carrying ``delta.tool_calls``; the agent sends the
result back as a ``{"role": "tool", "tool_call_id": ...}`` message. Requests without tools get a
short text.
"""

from __future__ import annotations

import json
import time
from typing import Any

from cupcake.live.standin import RecordedRequest, ScriptedModel, Text, ToolResult, complete_arguments, sse_data

USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return json.dumps(content)


class ChatCompletionsStandin(ScriptedModel):
    name = "chat-completions-standin"
    model_id = "gpt-4.1"

    def results_in(self, request: RecordedRequest) -> list[ToolResult]:
        return [
            ToolResult(message.get("tool_call_id", ""), _content_text(message.get("content")))
            for message in request.body.get("messages") or []
            if isinstance(message, dict) and message.get("role") == "tool"
        ]

    def _delta(self, request: RecordedRequest) -> tuple[dict[str, Any], str]:
        body = request.body
        calls = sum(
            len(message.get("tool_calls") or [])
            for message in body.get("messages") or []
            if isinstance(message, dict) and message.get("role") == "assistant"
        )
        turn = self.turn(calls) if self.is_main_loop(request) else Text("ok")
        if isinstance(turn, Text):
            return {"role": "assistant", "content": turn.text}, "stop"
        schema = next(
            (
                t["function"].get("parameters")
                for t in body.get("tools") or []
                if isinstance(t, dict)
                and isinstance(t.get("function"), dict)
                and t["function"].get("name") == turn.name
            ),
            None,
        )
        call = {
            "index": 0,
            "id": f"call_standin_{calls + 1}",
            "type": "function",
            "function": {"name": turn.name, "arguments": json.dumps(complete_arguments(turn.arguments, schema))},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"

    def answer(self, handler, request: RecordedRequest) -> None:
        route = request.path.split("?", 1)[0].rstrip("/")
        if request.method == "GET" and route.endswith("/models"):
            handler.send_json(
                200, {"object": "list", "data": [{"id": self.model_id, "object": "model", "owned_by": "standin"}]}
            )
            return
        if not (request.method == "POST" and route.endswith("/chat/completions") and isinstance(request.body, dict)):
            self.answer_other(handler, request)
            return
        delta, finish = self._delta(request)
        head = {
            "id": f"chatcmpl-standin-{len(self.requests)}",
            "created": int(time.time()),
            "model": request.body.get("model", self.model_id),
        }
        if not request.body.get("stream"):
            message = {k: v for k, v in delta.items() if k != "tool_calls"}
            if "tool_calls" in delta:
                message["tool_calls"] = [{k: v for k, v in c.items() if k != "index"} for c in delta["tool_calls"]]
            choice = {"index": 0, "message": message, "finish_reason": finish}
            handler.send_json(200, dict(head, object="chat.completion", choices=[choice], usage=USAGE))
            return
        chunk = dict(head, object="chat.completion.chunk")
        handler.send_sse(
            [
                sse_data(dict(chunk, choices=[{"index": 0, "delta": delta, "finish_reason": None}])),
                sse_data(dict(chunk, choices=[{"index": 0, "delta": {}, "finish_reason": finish}])),
                sse_data(dict(chunk, choices=[], usage=USAGE)),
                b"data: [DONE]\n\n",
            ]
        )
