"""Problems found in policy files: errors fail the whole load, warnings are reported by validate."""

from __future__ import annotations

ERROR, WARNING = "error", "warning"


class Problem:
    __slots__ = ("severity", "file", "line", "policy", "message")

    def __init__(self, severity: str, file: str, line, policy, message: str):
        self.severity = severity
        self.file = file
        self.line = line
        self.policy = policy
        self.message = message

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        who = f' policy "{self.policy}":' if self.policy else ""
        return f"{where}:{who} {self.message}"

    def as_dict(self) -> dict:
        return {
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "policy": self.policy,
            "message": self.message,
        }


def suggestion(word, choices) -> str:
    """`` (did you mean "x"?)`` when one of ``choices`` is close to ``word``."""
    import difflib

    if not isinstance(word, str):
        return ""
    choices = list(choices)
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close and len(word) >= 3:
        close = [c for c in choices if c.startswith(word[:3])][:1]
    return f' (did you mean "{close[0]}"?)' if close else ""
