"""Shadow runs: a candidate policy set and observed policies, evaluated on every live event beside the
enforced set without changing what the agent is told. Where they differ is recorded in
``.cupcake/shadow.log`` (and, with the audit trail on, in the run's audit record).

- ``compile``: the cold side, ``[shadow] candidate = "<file>"`` and ``mode = "observe"`` compiled into
  the plain sets a run evaluates (``compiled["shadow"]`` and ``compiled["observe"]``).
- ``evaluate``: the warm side, one event through such a set, nothing run, nothing written.
- ``log``: the record of the differences; ``report`` reads it back; ``promote`` makes the candidate
  the enforced set.
"""
