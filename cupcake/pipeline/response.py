"""The transport-neutral answer a run prepares; agent adapters render it."""

from __future__ import annotations

# What a run decided. "none": nothing to say; "soft": only soft feedback; "error": the run failed
# and fail_mode decides what the agent is told.
NONE, SOFT, BLOCK, APPROVE, ASK, ERROR = "none", "soft", "block", "approve", "ask", "error"


class Decision:
    """The decisions, as plain strings (no ``enum``: it costs milliseconds of every hook call).

    ``BLOCK``, ``ASK`` and ``APPROVE`` are the hard decisions a system may take with
    ``ctx.decide``; a ``Response`` carries any of them."""

    NONE = NONE
    SOFT = SOFT
    BLOCK = BLOCK
    APPROVE = APPROVE
    ASK = ASK
    ERROR = ERROR


# How strict each hard decision is: a later system may only make a decision stricter.
HARD_RANK = {APPROVE: 1, ASK: 2, BLOCK: 3}


class Response:
    __slots__ = ("decision", "text", "soft_text", "reason", "context", "fail_closed", "private", "command")

    def __init__(
        self,
        decision: str = NONE,
        text: str = "",
        soft_text: str = "",
        reason: str = "",
        context: str = "",
        fail_closed: bool = False,
        command: str | None = None,
    ) -> None:
        self.decision = decision
        self.text = text  # block text, soft text, or the error, by decision
        self.soft_text = soft_text  # soft feedback riding along an approve or ask
        self.reason = reason  # approve / ask reason
        self.context = context  # context for the model (never decides)
        self.fail_closed = fail_closed  # an error under fail_mode = "closed"
        self.command = command  # the shell command to run in place of the agent's (the OS layer's jail)
        # For the person only, never the model: sent in the agent's user-only channel where it has one
        # (its adapter's USER_CHANNEL), dropped where it has none (an approval code, cupcake.approvals).
        self.private = ""

    def __repr__(self) -> str:
        return f"Response({self.decision!r}, text={self.text!r})"


# Response.decision -> the decision a reader of a record (the audit trail, telemetry) sees.
OUTCOMES = {NONE: "allow", SOFT: "feedback", BLOCK: "block", APPROVE: "approve", ASK: "ask", ERROR: "error"}


def outcome(response: Response | None) -> str:
    """allow, feedback, block, approve, ask, context (an allow that gave the model context) or error."""
    if response is None:
        return "error"
    kind = OUTCOMES.get(response.decision, "error")
    if kind == "allow" and response.context:
        return "context"
    return kind


def sent_text(response: Response | None) -> str:
    """The text the agent (or, for an error, the user) was sent."""
    if response is None:
        return ""
    if response.decision in (APPROVE, ASK):
        return "\n\n".join(t for t in (response.reason, response.soft_text) if t)
    return response.text or ""
