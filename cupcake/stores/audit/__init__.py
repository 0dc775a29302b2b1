"""The audit trail: one JSON line per decision in ``.cupcake/audit.log``, hash-chained, rotated.

Hot path (imported by ``cupcake run`` only when audit logging is on): ``record``, ``mask``,
``chain``, ``writer``. Cold path (``cupcake audit``): ``reader``, ``query``, ``table``, ``follow``,
``stats``, ``verify``. The schema is documented in docs/audit-log.md.
"""
