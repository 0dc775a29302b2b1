"""Evaluator feedback (seed 004): findings that an evaluator writes as ``eval-*.json`` files are read
back into the agent's context, and (``blocking = true``) major integration issues stop Write/Edit.

Nothing here is imported unless ``[settings.eval_feedback]`` is on and the event is one it serves.

- ``settings``: the table's defaults, filled in when policies are compiled.
- ``evals``: finding the newest well-formed eval file (malformed ones are skipped with a note).
- ``findings``: the warning lines and headings, word for word as seed 004 builds them.
- ``mistakes``: the cumulative list of repeated mistakes under ``.cupcake/``.
- ``inject``: pass 1's part (context); ``gate``: pass 2's part (the blocking gate).
"""

# Where a run keeps what eval feedback did, for the audit trail: ``ctx.ext[EXT_KEY]`` is a dict with
# "eval" (the file used, shown relative to the root, or None), "findings" (its JSON object, or None),
# "notes" (files skipped and why, other problems: for the audit log, never shown to the agent),
# "added" (mistakes added to the cumulative list) and "gate" (None, "open" or "blocked"). The key is
# absent when eval feedback did not run for the event; "read" says whether the eval directory was read.
EXT_KEY = "cupcake.eval_feedback"
