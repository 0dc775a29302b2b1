"""Approvals only a person can give: when a policy blocks a tool call, the person (never the agent) can
let that exact call through once, for a while, or always with a reason, by running
``cupcake allow CODE`` with the short code shown in the agent's user-only channel.

What makes it the person's: the code is sent only where the agent's protocol shows the user and never
the model (Claude Code's ``systemMessage``; an agent without such a channel gets no code); the store
keeps a keyed hash of each code, never the code, under a key derived from the per-user secret; wrong
codes are counted, and after ``MAX_WRONG`` every pending code is withdrawn; ``cupcake allow`` run
through the agent's tools is blocked by self-protection, and the store lives under ``.cupcake/``,
which the operating-system layer makes read-only to the agent. Every grant and every use is in the
audit trail.

- ``codes``: the code, its keyed hash, the seal of an entry, the call's fingerprint (warm).
- ``files``: the files as a hook run uses them: the lock, the offers file a blocked call appends its
  code to, the store read for a grant (warm).
- ``store``: ``.cupcake/approvals.json`` under that lock, the offers folded in (cold, but for using up
  a "once" grant).
- ``at_block``: what a run does when a policy blocks: use a grant, or offer a code (warm).
- ``grant``: ``cupcake allow`` (cold).
"""

STORE_NAME = "approvals.json"
NOTES = "cupcake.approvals"  # the namespace of its notes in the audit trail
MODES = ("code", "ask", "off")  # [settings] approvals
