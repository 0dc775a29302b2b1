"""Pass 2's part of evaluator feedback (seed 004's phase 2, ``blocking = true``): while the newest
eval reports ``integration_quality = "major_issues"``, the agent may not write or edit files. A newer
eval without it lifts the gate. Checked before any policy's hard action.

A Bash command is gated when it would change a file of the project, as Cupcake's Bash reader
(``cupcake.shell``) reads it: a target it cannot resolve could be one; writes elsewhere (``/tmp``,
``/dev/null``) and commands that write nothing (``npm test``) are not gated."""

from __future__ import annotations

from cupcake.evaluator_findings.findings import major_issues, warning_lines
from cupcake.evaluator_findings.inject import newest, record_of

GATE_NAME = "eval_feedback (blocking)"  # how the gate is named where a policy name would be


def gate_reason(ctx, settings: dict):
    """The block's reason when the gate is closed, else None."""
    by = None
    if ctx.incoming.tool == "Bash":
        by = bash_write(ctx)
        if by is None:
            return None
    record = record_of(ctx)
    findings = newest(ctx, settings, record)
    if not findings or not major_issues(findings):
        record["gate"] = "open"
        return None
    record["gate"] = "blocked"
    return (
        f"Quality gate: the latest evaluation ({record['eval']}) found major integration issues. Writing and editing files "
        f"stays blocked until a newer evaluation clears them.{by or ''} Findings:\n"
        + "\n".join(warning_lines(findings))
    )


def bash_write(ctx):
    """ " This command (…) would change …." when the Bash command of this call would change a file
    of the project (or the reader cannot tell which file it changes), else None."""
    command = ctx.incoming.tool_input.get("command") if isinstance(ctx.incoming.tool_input, dict) else None
    if not isinstance(command, str) or not command:
        return None
    from cupcake.protection.bash import known_env, quick_pass

    if quick_pass(command):
        return None
    from cupcake.shell import parse

    root = ctx.root.rstrip("/") or "/"
    cwd = ctx.incoming.cwd if isinstance(ctx.incoming.cwd, str) and ctx.incoming.cwd.startswith("/") else root
    script = parse(command, cwd, ctx.env.get("HOME") or None, known_env(ctx, root))
    for write in script.writes:
        path = write.path
        if path is None:
            return f" This command ({write.kind} to {write.pattern.replace('…', '...')}) could change any file."
        inside = path == root or path.startswith(root + "/")
        holds = (write.recursive or write.worktree) and (root + "/").startswith(path.rstrip("/") + "/")
        if inside or holds:
            shown = path[len(root) + 1 :] if path.startswith(root + "/") else path
            return f" This command ({write.kind}) would change {shown or '.'}."
    if script.incomplete:
        return f" Cupcake could not read all of this command ({script.incomplete})."
    return None
