"""A scripted stand-in for the OpenAI Responses API, as Codex calls it (``POST /v1/responses``, SSE).

A tool call is a ``function_call`` output item; the agent sends the result back as a
``function_call_output`` input item. Requests without tools get a short text.
"""

from __future__ import annotations

import json
from typing import Any

from cupcake.live.standin import RecordedRequest, ScriptedModel, Text, ToolResult, complete_arguments, sse_data

USAGE = {
    "input_tokens": 10,
    "input_tokens_details": {"cached_tokens": 0},
    "output_tokens": 5,
    "output_tokens_details": {"reasoning_tokens": 0},
    "total_tokens": 15,
}


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):  # content items
        return "\n".join(item.get("text", "") for item in output if isinstance(item, dict))
    return json.dumps(output)


class ResponsesStandin(ScriptedModel):
    name = "responses-api-standin"

    def results_in(self, request: RecordedRequest) -> list[ToolResult]:
        return [
            ToolResult(item.get("call_id", ""), _output_text(item.get("output")))
            for item in request.body.get("input") or []
            if isinstance(item, dict) and item.get("type") == "function_call_output"
        ]

    def _item(self, request: RecordedRequest) -> dict[str, Any]:
        body = request.body
        inputs = body.get("input") or []
        calls = sum(1 for item in inputs if isinstance(item, dict) and item.get("type") == "function_call")
        turn = self.turn(calls) if self.is_main_loop(request) else Text("ok")
        if isinstance(turn, Text):
            return {
                "type": "message",
                "id": f"msg_standin_{calls}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
            }
        schema = next(
            (
                t.get("parameters")
                for t in body.get("tools") or []
                if isinstance(t, dict) and t.get("name") == turn.name
            ),
            None,
        )
        return {
            "type": "function_call",
            "id": f"fc_standin_{calls + 1}",
            "call_id": f"call_standin_{calls + 1}",
            "name": turn.name,
            "arguments": json.dumps(complete_arguments(turn.arguments, schema)),
            "status": "completed",
        }

    def answer(self, handler, request: RecordedRequest) -> None:
        route = request.path.split("?", 1)[0].rstrip("/")
        if request.method == "GET" and route.endswith("/models"):
            handler.send_json(200, {"object": "list", "data": [], "models": []})
            return
        if not (request.method == "POST" and route.endswith("/responses") and isinstance(request.body, dict)):
            self.answer_other(handler, request)
            return
        item = self._item(request)
        response_id = f"resp_standin_{len(self.requests)}"
        head = {"id": response_id, "object": "response", "model": request.body.get("model", "standin")}
        done = dict(head, status="completed", output=[item], usage=USAGE)
        if not request.body.get("stream"):
            handler.send_json(200, done)
            return
        handler.send_sse(
            [
                sse_data(
                    {"type": "response.created", "response": dict(head, status="in_progress", output=[])},
                    "response.created",
                ),
                sse_data(
                    {"type": "response.output_item.added", "output_index": 0, "item": item},
                    "response.output_item.added",
                ),
                sse_data(
                    {"type": "response.output_item.done", "output_index": 0, "item": item}, "response.output_item.done"
                ),
                sse_data({"type": "response.completed", "response": done}, "response.completed"),
            ]
        )
