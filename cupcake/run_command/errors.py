"""The one exception of the command executor."""

from __future__ import annotations


class CommandSpecError(ValueError):
    """A ``run_command`` action is written wrongly (unknown placeholder, bad key, working_dir outside the root).

    The policy compiler should have rejected it (see ``check_command_template``); raised when it is
    used anyway. Failures of the command itself are never raised: they become a ``CommandResult``.
    """


class UnsafeValue(Exception):
    """A value from the event would become an option of the checked program: the check fails, not started."""
