"""Shared pieces of the agent adapter tests: the captured payloads, and one Response per decision."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cupcake.pipeline.response import Response

PAYLOADS = Path(__file__).parent / "payloads"


def lines(agent: str, name: str) -> list[dict]:
    return [json.loads(line) for line in (PAYLOADS / agent / name).read_text(encoding="utf-8").splitlines() if line]


# Short texts keep the expected bytes readable; the texts themselves are the pipeline's business.
RESPONSES = {
    "none": Response(),
    "block": Response("block", "Operation blocked: no"),
    "soft": Response("soft", "Policy feedback found"),
    "approve": Response("approve", reason="trusted"),
    "approve_soft": Response("approve", reason="trusted", soft_text="Policy feedback found"),
    "ask": Response("ask", reason="confirm?"),
    "context": Response(context="House rules"),
    "error_open": Response("error", "Cupcake: broken"),
    "error_closed": Response("error", "Cupcake: broken", fail_closed=True),
}


def out(obj=None, err: str = "", code: int = 0):
    """The exact (stdout, stderr, exit) an adapter must produce."""
    stdout = (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode() if obj is not None else b""
    return stdout, (err + "\n").encode() if err else b"", code


@pytest.fixture
def responses():
    return RESPONSES
