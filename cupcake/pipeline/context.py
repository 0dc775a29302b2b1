"""The per-run context: typed core facts as slots, plus namespaced slots for integrators."""

from __future__ import annotations

from cupcake.pipeline.response import HARD_RANK

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:  # annotations only: nothing here is imported at run time
    from collections.abc import Mapping
    from types import ModuleType
    from typing import Any

    from cupcake.agents.event import Event
    from cupcake.pipeline.response import Response
    from cupcake.pipeline.runner import Failure


class HardDecision(tuple):
    """The final hard decision: ``(kind, text, by)`` read by name. ``kind`` is "block", "ask" or
    "approve"; ``text`` the reason shown to the agent; ``by`` the policy or system that took it."""

    __slots__ = ()

    def __new__(cls, kind: str, text: str, by: str) -> HardDecision:
        return tuple.__new__(cls, (kind, text, by))

    @property
    def kind(self) -> str:
        return self[0]

    @property
    def text(self) -> str:
        return self[1]

    @property
    def by(self) -> str:
        return self[2]


class Context:
    """What one hook event carries through the pipeline.

    Core facts are plain attributes; integrators keep their own data under a namespaced key
    in ``ext`` (``ctx.ext["acme.secrets"] = ...``) and never in the core fields.

    What a system reads: ``event`` (the hook event name), ``payload`` (the event object, a dict),
    ``root`` (the project root), ``settings``, ``fail_mode``, ``deadline`` (a ``time.monotonic()``
    value), ``soft``, ``contexts``, ``hard`` (``(kind, text, by)`` or None), ``other_blocks`` (``(by, text)`` of
    the other checks that block the call too), ``response`` (the
    answer once prepared at 600), ``failures`` and ``warnings``. What it may change, through the
    methods below: feedback, context and hard decisions before the answer is prepared, and
    warnings at any time. Nothing a system adds can loosen what an earlier one decided.
    """

    __slots__ = (
        # input
        "raw",  # bytes read from stdin
        "event_arg",  # --event, if given (wins over the event name in the payload)
        "agent",  # the agent's adapter (cupcake.agents): parses its payload, renders the answer
        "event",  # the resolved event name (canonical: Claude Code's vocabulary)
        "payload",  # the canonical event object (dict), unknown fields kept
        "incoming",  # the canonical event (cupcake.agents.event.Event): its typed facts
        "env",  # the process environment (a mapping)
        "options",  # run options (e.g. timings)
        # policies
        "root",  # the project root (resolved)
        "configured",  # None: not known yet; False: no policy file exists; True: one does
        "policies",  # the compiled policy set
        "settings",  # the merged settings
        "fail_mode",  # "open" or "closed"
        "deadline",  # time.monotonic() value the run must finish by
        # evaluation
        "matched",  # indexes of the policies whose conditions hold, in list order
        "soft",  # soft messages, in list order
        "contexts",  # context texts, in list order
        "hard",  # the final hard action: (kind, text, policy name) or None
        "other_blocks",  # (by, text) of the other checks that block this call too, named after ``hard``
        "checks",  # commands that ran (for the audit trail)
        "state",  # session state, when a policy needs it
        "patterns",  # the run's regexes (cupcake.evaluate.patterns), made on first use
        # answer
        "response",  # the transport-neutral Response
        "envelope",  # (stdout bytes, stderr bytes, exit code) rendered for the agent
        "rendered_warnings",  # how many warnings the envelope already carries
        "sealed",  # the response can no longer change (warnings may still be added)
        # bookkeeping
        "failures",  # Failure records of systems that raised
        "warnings",  # problems that do not change the decision (e.g. state could not be written)
        "standing",  # a problem every run meets until a person fixes it (.cupcake/ cannot be written): told on
        # the events that open a session or a turn only (cupcake.stores.workdir)
        "timings",  # (system name, seconds)
        "current",  # the name of the system running now
        "ext",  # integrators' namespaced slots
    )

    def __init__(
        self,
        raw: bytes = b"",
        event_arg: str | None = None,
        env: Mapping[str, str] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.raw: bytes = raw
        self.event_arg: str | None = event_arg
        self.agent: ModuleType | None = None
        self.event: str | None = event_arg
        self.payload: dict[str, Any] | None = None
        self.incoming: Event | None = None
        self.env: Mapping[str, str] = env if env is not None else {}
        self.options: dict[str, Any] = options or {}
        self.root: str | None = None
        self.configured: bool | None = None
        self.policies: dict[str, Any] | None = None
        self.settings: dict[str, Any] = {}
        self.fail_mode: str = "open"
        self.deadline: float | None = None
        self.matched: list[int] = []
        self.soft: list[str] = []
        self.contexts: list[str] = []
        self.hard: HardDecision | None = None
        self.other_blocks: list[tuple[str, str]] = []
        self.checks: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.patterns: Any = None
        self.response: Response | None = None
        self.envelope: tuple[bytes, bytes, int] | None = None
        self.rendered_warnings: int = 0
        self.sealed: bool = False
        self.failures: list[Failure] = []
        self.warnings: list[str] = []
        self.standing: list[str] = []
        self.timings: list[tuple[str, float]] = []
        self.current: str | None = None
        self.ext: dict[str, Any] = {}

    def decision_failures(self) -> list[Failure]:
        """Failures of systems that decide: the run could not evaluate policies."""
        return [f for f in self.failures if f.decides]

    # What systems (built-in or custom) use to contribute to the answer.

    def add_feedback(self, message: str) -> None:
        """One more soft message (shown with every other finding, in order)."""
        if not isinstance(message, str) or not message:
            raise TypeError(f"feedback must be a non-empty str, got {message!r}")
        self.soft.append(message)

    def add_context(self, text: str) -> None:
        """Context for the model (never decides)."""
        if not isinstance(text, str) or not text:
            raise TypeError(f"context must be a non-empty str, got {text!r}")
        self.contexts.append(text)

    def decide(self, kind: str, text: str, by: str) -> None:
        """A hard decision: ``"block"`` (``text`` is the reason shown to the agent), ``"ask"`` or
        ``"approve"``. The strictest decision stands (block > ask > approve); among equals, the first."""
        if kind not in HARD_RANK:
            raise ValueError(f'a hard decision is "block", "ask" or "approve", got {kind!r}')
        if not isinstance(text, str) or not isinstance(by, str):
            raise TypeError("the decision's text and who took it (by) must be str")
        if self.hard is None or HARD_RANK[kind] > HARD_RANK.get(self.hard.kind, 0):
            self.hard = HardDecision(kind, text, by)

    def warn(self, text: str) -> None:
        """A warning for the user (a ``systemMessage``); it never changes the decision, and it is
        the only thing a system may still add once the answer is sealed (after 700)."""
        if not isinstance(text, str) or not text:
            raise TypeError(f"a warning must be a non-empty str, got {text!r}")
        self.warnings.append(text)
