"""Errors whose text is written for the person reading the answer (no type names, no traces)."""


class CupcakeError(Exception):
    public = True  # the runner records the message as it is


class DeadlineExceeded(CupcakeError):
    pass


class DeadlinePassed(BaseException):
    """Rung again into a custom system that swallowed ``DeadlineExceeded`` and kept running. Not an
    ``Exception``, so ``except Exception`` cannot swallow it; the custom-system fence catches it."""
