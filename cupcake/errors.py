"""Errors whose text is written for the person reading the answer (no type names, no traces)."""


class CupcakeError(Exception):
    public = True  # the runner records the message as it is


class UnreadableInput(CupcakeError):
    """The hook event holds what Cupcake cannot read (too large, too deep, not UTF-8, a number too
    long, text that is not Unicode): the agent may have made it so, so on an event that can block
    it is blocked whatever ``fail_mode`` says."""

    blocks = True


class DeadlineExceeded(CupcakeError):
    pass


class DeadlinePassed(BaseException):
    """Rung again into a custom system that swallowed ``DeadlineExceeded`` and kept running. Not an
    ``Exception``, so ``except Exception`` cannot swallow it; the custom-system fence catches it."""
