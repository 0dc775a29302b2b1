"""The compiled policy form, read by name.

The compiler stores each policy and its action as plain tuples: the policy cache is ``marshal`` data
(never pickle), and marshal keeps tuples, not objects. A warm run reads them through these views:
tuple subclasses with named fields, so wrapping one costs a tuple copy of a handful of references and
reading a field costs an index. Only the candidates of an event are ever wrapped.

A policy: ``(name, event, tools, conditions, action, file, line)``. An action, by kind:

| kind | fields |
|---|---|
| ``block``, ``approve``, ``ask``, ``soft``, ``warn`` | ``text`` (the feedback message, reason or warning) |
| ``check`` (run_command) | ``spec`` (how to run it), ``on_failure`` (block, feedback, ignore), ``template`` (its feedback text) |
| ``context`` (inject_context) | ``source`` (text, file, command), ``value`` |
| ``state`` (update_state) | ``event``, ``data`` |
"""

from __future__ import annotations


class Policy(tuple):
    """One compiled policy, as the cache stores it."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self[0]

    @property
    def event(self) -> str:
        return self[1]

    @property
    def tools(self):
        """The compiled matcher (None: every tool)."""
        return self[2]

    @property
    def conditions(self) -> tuple:
        return self[3]

    @property
    def action(self) -> Action:
        return Action(self[4])

    @property
    def file(self) -> str:
        return self[5]

    @property
    def line(self) -> int | None:
        return self[6]


class Action(tuple):
    """A compiled action (see the table above)."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return self[0]

    @property
    def text(self) -> str:
        return self[1]

    # run_command
    @property
    def spec(self) -> dict:
        return self[1]

    @property
    def on_failure(self) -> str:
        return self[2]

    @property
    def template(self) -> str | None:
        return self[3]

    # inject_context
    @property
    def source(self) -> str:
        return self[1]

    @property
    def value(self):
        return self[2]

    # update_state
    @property
    def event(self) -> str:
        return self[1]

    @property
    def data(self):
        return self[2]

    @property
    def blocks(self) -> bool:
        """A hard block: block_with_feedback, or a run_command whose failure blocks."""
        return self[0] == "block" or (self[0] == "check" and self[2] == "block")


def policy(policies, i: int) -> Policy:
    """The ``i``-th compiled policy of the set, read by name."""
    return Policy(policies[i])
