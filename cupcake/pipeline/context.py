"""The per-run context: typed core facts as slots, plus namespaced slots for integrators."""

from __future__ import annotations


class Context:
    """What one hook event carries through the pipeline.

    Core facts are plain attributes; integrators keep their own data under a namespaced key
    in ``ext`` (``ctx.ext["acme.secrets"] = ...``) and never in the core fields.
    """

    __slots__ = (
        # input
        "raw",  # bytes read from stdin
        "event_arg",  # --event, if given (wins over the payload's hook_event_name)
        "event",  # the resolved event name
        "payload",  # the parsed event object (dict), unknown fields kept
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
        "checks",  # commands that ran (for the audit trail)
        "state",  # session state, when a policy needs it
        # answer
        "response",  # the transport-neutral Response
        "envelope",  # (stdout bytes, stderr bytes, exit code) rendered for the agent
        "rendered_warnings",  # how many warnings the envelope already carries
        "sealed",  # the response can no longer change (warnings may still be added)
        # bookkeeping
        "failures",  # Failure records of systems that raised
        "warnings",  # problems that do not change the decision (e.g. state could not be written)
        "timings",  # (system name, seconds)
        "ext",  # integrators' namespaced slots
    )

    def __init__(self, raw: bytes = b"", event_arg=None, env=None, options=None):
        self.raw = raw
        self.event_arg = event_arg
        self.event = event_arg
        self.payload = None
        self.env = env if env is not None else {}
        self.options = options or {}
        self.root = None
        self.configured = None
        self.policies = None
        self.settings = {}
        self.fail_mode = "open"
        self.deadline = None
        self.matched = []
        self.soft = []
        self.contexts = []
        self.hard = None
        self.checks = []
        self.state = None
        self.response = None
        self.envelope = None
        self.rendered_warnings = 0
        self.sealed = False
        self.failures = []
        self.warnings = []
        self.timings = []
        self.ext = {}

    def decision_failures(self):
        """Failures of systems that decide: the run could not evaluate policies."""
        return [f for f in self.failures if f.decides]
