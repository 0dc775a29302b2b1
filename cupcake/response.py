"""The transport-neutral answer a run prepares; agent adapters render it."""

from __future__ import annotations

# What a run decided. "none": nothing to say; "soft": only soft feedback; "error": the run failed
# and fail_mode decides what the agent is told.
NONE, SOFT, BLOCK, APPROVE, ASK, ERROR = "none", "soft", "block", "approve", "ask", "error"


class Response:
    __slots__ = ("decision", "text", "soft_text", "reason", "context", "fail_closed")

    def __init__(self, decision=NONE, text="", soft_text="", reason="", context="", fail_closed=False):
        self.decision = decision
        self.text = text  # block text, soft text, or the error, by decision
        self.soft_text = soft_text  # soft feedback riding along an approve or ask
        self.reason = reason  # approve / ask reason
        self.context = context  # context for the model (never decides)
        self.fail_closed = fail_closed  # an error under fail_mode = "closed"

    def __repr__(self) -> str:
        return f"Response({self.decision!r}, text={self.text!r})"
