"""Problems found in policy files: errors fail the whole load, warnings are reported by validate."""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing costs milliseconds of every hook call
if TYPE_CHECKING:
    from collections.abc import Iterable

ERROR, WARNING = "error", "warning"


class Problem:
    __slots__ = ("severity", "file", "line", "policy", "message", "index")

    def __init__(
        self, severity: str, file: str, line: int | None, policy: str | None, message: str, index: int | None = None
    ) -> None:
        self.severity = severity
        self.file = file
        self.line = line
        self.policy = policy  # the policy's name, when it has one
        self.message = message
        self.index = index  # the policy's position in its file (1 = the first [[policy]]), when in one

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}:{self.who()} {self.message}"

    def who(self) -> str:
        """`` policy "name":``, or `` [[policy]] #3 (no name):`` for a policy without a usable name."""
        if self.policy:
            return f' policy "{self.policy}":'
        if self.index:
            return f" [[policy]] #{self.index} (no name):"
        return ""

    def as_dict(self) -> dict:
        return {
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "policy": self.policy,
            "index": self.index,
            "message": self.message,
            "suggestion": suggested(self.message),
        }


_MEAN = ' (did you mean "'


def suggested(message: str) -> str | None:
    """The replacement a message's "did you mean" names (made by ``suggestion``), or None."""
    start = message.rfind(_MEAN)
    if start < 0 or not message.endswith('"?)'):
        return None
    return message[start + len(_MEAN) : -3]


def suggestion(word: object, choices: Iterable[str]) -> str:
    """`` (did you mean "x"?)`` when one of ``choices`` is close to ``word``."""
    import difflib

    if not isinstance(word, str):
        return ""
    choices = list(choices)
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close and len(word) >= 3:
        close = [c for c in choices if c.startswith(word[:3])][:1]
    return f' (did you mean "{close[0]}"?)' if close else ""
