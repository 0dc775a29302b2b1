"""Errors whose text is written for the person reading the answer (no type names, no traces)."""


class CupcakeError(Exception):
    public = True  # the runner records the message as it is


class DeadlineExceeded(CupcakeError):
    pass
