"""Acme's Cupcake systems: an example of what an integrator ships.

- ``acme-secrets`` (``acme_cupcake.secrets:AwsKeyScan``): a decision stage that blocks a write of
  an AWS access key id.
- ``acme-decision-log`` (``acme_cupcake.decision_log:DecisionLog``): a sink that appends every
  answer to ``.cupcake/acme-decisions.jsonl``.
"""
