"""A scripted stand-in for the Gemini API (v1beta), as Gemini CLI calls it.

Main loop: ``POST /v1beta/models/<model>:streamGenerateContent?alt=sse`` offering
``tools[].functionDeclarations``; the answer is one SSE event holding the whole candidate. Side
calls (the model router's ``:generateContent`` with a ``responseJsonSchema``) get a JSON text that
the schema accepts.
"""

from __future__ import annotations

import json
from typing import Any

from cupcake.live.standin import (
    RecordedRequest,
    ScriptedModel,
    Text,
    ToolResult,
    complete_arguments,
    sse_data,
    value_for_schema,
)


def _declarations(body: dict[str, Any]) -> dict[str, Any]:
    found = {}
    for tool in body.get("tools") or []:
        for declaration in tool.get("functionDeclarations") or []:
            found[declaration.get("name")] = declaration.get("parametersJsonSchema") or declaration.get("parameters")
    return found


class GeminiStandin(ScriptedModel):
    name = "gemini-api-standin"

    def is_main_loop(self, request: RecordedRequest) -> bool:
        return super().is_main_loop(request) and bool(_declarations(request.body))

    def results_in(self, request: RecordedRequest) -> list[ToolResult]:
        results: list[ToolResult] = []
        for content in request.body.get("contents") or []:
            for part in content.get("parts") or []:
                response = part.get("functionResponse") if isinstance(part, dict) else None
                if not response:
                    continue
                shown = response.get("response") or {}
                text = shown.get("output", shown.get("error")) if isinstance(shown, dict) else None
                call_id = response.get("id") or f"{response.get('name')}#{len(results)}"
                results.append(ToolResult(call_id, text if isinstance(text, str) else json.dumps(shown)))
        return results

    def _calls_so_far(self, body: dict[str, Any]) -> int:
        return sum(
            1
            for content in body.get("contents") or []
            if content.get("role") == "model"
            for part in content.get("parts") or []
            if isinstance(part, dict) and "functionCall" in part
        )

    def _candidate_part(self, request: RecordedRequest) -> dict[str, Any]:
        body = request.body
        if not self.is_main_loop(request):
            config = body.get("generationConfig") or {}
            schema = config.get("responseJsonSchema") or config.get("responseSchema")
            return {"text": json.dumps(value_for_schema(schema)) if schema else "ok"}
        turn = self.turn(self._calls_so_far(body))
        if isinstance(turn, Text):
            return {"text": turn.text}
        args = complete_arguments(turn.arguments, _declarations(body).get(turn.name))
        return {"functionCall": {"name": turn.name, "args": args}}

    def answer(self, handler, request: RecordedRequest) -> None:
        route = request.path.split("?", 1)[0]
        if request.method != "POST" or not isinstance(request.body, dict):
            self.answer_other(handler, request)
            return
        if route.endswith(":countTokens"):
            handler.send_json(200, {"totalTokens": 10})
            return
        if not (route.endswith(":streamGenerateContent") or route.endswith(":generateContent")):
            self.answer_other(handler, request)
            return
        model = route.rsplit("/", 1)[-1].split(":", 1)[0]
        response = {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [self._candidate_part(request)]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": model,
        }
        if route.endswith(":streamGenerateContent"):
            handler.send_sse([sse_data(response)])
        else:
            handler.send_json(200, response)
