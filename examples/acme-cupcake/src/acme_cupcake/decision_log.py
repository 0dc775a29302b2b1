"""A sink: append each answer Cupcake gives to ``.cupcake/acme-decisions.jsonl``.

Run it after the answer is sealed (e.g. ``acme-decision-log = 850``): it can read the answer but
never change it. ``decides = False``: if it fails (a full disk), the user gets a warning and the
decision stands.
"""

from __future__ import annotations

import os
import time

from cupcake import BaseSystem

LOG = os.path.join(".cupcake", "acme-decisions.jsonl")


class DecisionLog(BaseSystem):
    decides = False

    def should_process(self, ctx) -> bool:
        return ctx.response is not None and ctx.root is not None

    def process(self, ctx) -> None:
        response = ctx.response
        record = {
            "time": time.time(),
            "event": ctx.event,
            "tool": ctx.incoming.tool if ctx.incoming is not None else None,
            "decision": response.decision,
            "by": ctx.hard[2] if ctx.hard else None,
            "reason": (response.text or response.reason).split("\n", 1)[0],
        }
        path = os.path.join(ctx.root, LOG)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a", encoding="utf-8", errors="replace") as f:
            f.write(_json(record) + "\n")


# `json` imports `re`, about 10 ms of every hook call: a sink that runs on every event writes its
# few flat fields itself.
_ESCAPES = {i: f"\\u{i:04x}" for i in range(32)} | {ord('"'): '\\"', ord("\\"): "\\\\", 10: "\\n", 9: "\\t"}


def _json(record: dict) -> str:
    def value(v):
        if v is None:
            return "null"
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return repr(v)
        return '"' + str(v).translate(_ESCAPES) + '"'

    return "{" + ", ".join(f"{value(k)}: {value(v)}" for k, v in record.items()) + "}"
