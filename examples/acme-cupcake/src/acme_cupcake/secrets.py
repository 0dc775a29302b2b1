"""A decision stage: block any write whose new content holds an AWS access key id.

Run it before the hard-action scan (e.g. ``acme-secrets = 450``): its block then stands whatever
the policies decide, and the agent sees the policies' feedback along with it.
"""

from __future__ import annotations

from cupcake import BaseSystem, Decision

WRITE_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit")


class AwsKeyScan(BaseSystem):
    def should_process(self, ctx) -> bool:
        return ctx.event == "PreToolUse" and ctx.incoming.tool in WRITE_TOOLS

    def process(self, ctx) -> None:
        texts = [t for t in _written(ctx.incoming.tool_input) if "AKIA" in t]
        if not texts:
            return  # the common case costs a substring search; `re` is imported only when needed
        import re

        for text in texts:
            found = re.search(r"AKIA[0-9A-Z]{16}", text)
            if found:
                key = found.group()
                ctx.decide(
                    Decision.BLOCK,
                    f"An AWS access key id ({key[:4]}…{key[-4:]}) must never be written into the repository:"
                    " read it from the environment instead.",
                    by=self.name,
                )
                return


def _written(tool_input) -> list:
    """What the tool would write: Write ``content``, Edit ``new_string``, each MultiEdit edit."""
    if not isinstance(tool_input, dict):
        return []
    found = [tool_input.get(k) for k in ("content", "new_string", "new_source")]
    for edit in tool_input.get("edits") or ():
        if isinstance(edit, dict):
            found.append(edit.get("new_string"))
    return [text for text in found if isinstance(text, str)]
