"""The bounds of the Bash reader: how much it reads, how deep, how many commands, how much work.

Every bound, when passed, stops the reading (never raises) and marks the result ``incomplete`` with
the reason, so a caller that needs certainty can block. One ``Budget`` is shared by a parse and
everything nested in it (``$(…)``, ``sh -c``, ``eval``, here-documents fed to a shell).
"""

from __future__ import annotations

MAX_INPUT = 64 * 1024  # characters read; beyond: "too long to read"
MAX_DEPTH = 40  # nesting of constructs and re-parsed scripts together
MAX_COMMANDS = 2000  # simple commands reported
MAX_BRACE = 256  # fields one word's brace expansion may produce; beyond: the word is unknown
MAX_LOOP_ITEMS = 8  # a `for` over this many known words is read once per word
MAX_WORK = 3_000_000  # characters scanned + characters expanded + commands, over the whole parse
MAX_PATTERN = 4096  # pattern tokens a matcher will walk; longer patterns "could match" anything
# Work charged for comparing one path (or one of its directories) with one path an earlier command of the
# same line may have left a link at: each command's paths are compared with every earlier change, so a
# long line of plain `cp a1 b1; cp a2 b2; ...` costs the square of its length (2,000 of them took a minute,
# past every agent's hook time-out). A pattern walk costs about as much as scanning a few dozen characters.
LINK_CHECK_COST = 8


class Budget:
    """Work left, shared by a parse and all it nests; ``reason`` is set by the first bound passed."""

    __slots__ = ("work", "commands", "reason")

    def __init__(self) -> None:
        self.work = MAX_WORK
        self.commands = MAX_COMMANDS
        self.reason: str | None = None

    def spend(self, amount: int) -> bool:
        """Take ``amount`` of work; False (and the reason set) once the budget is gone."""
        self.work -= amount
        if self.work < 0:
            self.stop("work budget exhausted")
            return False
        return True

    def stop(self, reason: str) -> None:
        if self.reason is None:
            self.reason = reason

    @property
    def stopped(self) -> bool:
        return self.reason is not None
