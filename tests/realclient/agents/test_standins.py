"""The model stand-ins on their own (no agent client needed): the script is played by history, not by
request count, and what the agent sent back after a tool call can be read."""

from __future__ import annotations

import json
import urllib.request

from cupcake.live.gemini_api import GeminiStandin
from cupcake.live.standin import Shell, Text, ToolCall, complete_arguments

from .chat_api import ChatCompletionsStandin
from .responses_api import ResponsesStandin


def _post(url: str, body: dict) -> str:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read().decode()


def _sse_payloads(text: str) -> list[dict]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: {")]


def shell(command: str) -> ToolCall:
    return ToolCall("bash", {"command": command})


def test_chat_standin_answers_by_history_and_records_the_tool_result() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "bash",
                "parameters": {"required": ["command", "mode"], "properties": {"mode": {"enum": ["sync", "async"]}}},
            },
        }
    ]
    with ChatCompletionsStandin([Shell("ls"), Text("bye")], shell=shell) as api:
        url = api.base_url + "/v1/chat/completions"
        first = _sse_payloads(
            _post(url, {"stream": True, "tools": tools, "messages": [{"role": "user", "content": "go"}]})
        )
        again = _sse_payloads(
            _post(url, {"stream": True, "tools": tools, "messages": [{"role": "user", "content": "go"}]})
        )
        call = first[0]["choices"][0]["delta"]["tool_calls"][0]
        assert json.loads(call["function"]["arguments"]) == {"command": "ls", "mode": "sync"}
        assert again[0]["choices"][0]["delta"]["tool_calls"][0]["id"] == call["id"]  # a retry gets the same turn
        history = [
            {"role": "user", "content": "go"},
            {"role": "assistant", "tool_calls": [{"id": call["id"], "type": "function", "function": call["function"]}]},
            {"role": "tool", "tool_call_id": call["id"], "content": "Denied: no"},
        ]
        last = _sse_payloads(_post(url, {"stream": True, "tools": tools, "messages": history}))
    assert last[0]["choices"][0]["delta"]["content"] == "bye"
    assert [(r.call_id, r.text) for r in api.tool_results()] == [(call["id"], "Denied: no")]


def test_responses_standin_plays_a_function_call_then_text() -> None:
    with ResponsesStandin([ToolCall("exec_command", {"cmd": "ls"})]) as api:
        url = api.base_url + "/v1/responses"
        events = _sse_payloads(_post(url, {"stream": True, "tools": [{"name": "exec_command"}], "input": []}))
        item = events[-1]["response"]["output"][0]
        assert (item["type"], item["name"], json.loads(item["arguments"])) == (
            "function_call",
            "exec_command",
            {"cmd": "ls"},
        )
        output = {"type": "function_call_output", "call_id": item["call_id"], "output": "blocked"}
        events = _sse_payloads(_post(url, {"stream": True, "tools": [{"name": "x"}], "input": [item, output]}))
    assert events[-1]["response"]["output"][0]["content"][0]["text"] == "Done."
    assert [r.text for r in api.tool_results()] == ["blocked"]


def test_gemini_standin_answers_side_calls_from_their_schema() -> None:
    schema = {
        "type": "OBJECT",
        "required": ["score", "why"],
        "properties": {"score": {"type": "INTEGER"}, "why": {"type": "STRING"}},
    }
    with GeminiStandin([Text("hi")]) as api:
        body = {"contents": [], "generationConfig": {"responseJsonSchema": schema}}
        answer = json.loads(_post(api.base_url + "/v1beta/models/m:generateContent", body))
    assert json.loads(answer["candidates"][0]["content"]["parts"][0]["text"]) == {"score": 1, "why": "x"}
    assert api.main_loop_requests == []


def test_complete_arguments_keeps_what_the_script_gave() -> None:
    schema = {"required": ["command", "riskLevel"], "properties": {"riskLevel": {"enum": ["low", "high"]}}}
    assert complete_arguments({"command": "ls", "riskLevel": "high"}, schema) == {"command": "ls", "riskLevel": "high"}
    assert complete_arguments({"command": "ls"}, schema) == {"command": "ls", "riskLevel": "low"}
