"""Reading an ``inject_context`` policy's context at run time: a project file or a command's stdout.

A source that fails (a missing file, a symlink out of the project, a command that fails or times out)
gives no context and a warning for the user: context never decides, so it never blocks."""

from __future__ import annotations

from cupcake.inject_context.files import FileProblem, open_inside, read_fd

MAX_FILE_BYTES = 65536  # what is read of a context file; the answer is cut to the client's cap later
WARNING_CHARS = 2000  # a warning shows this much of a failed command's output at most


def file_cut_note(limit: int) -> str:
    return f"[… the rest of the file was not read: Cupcake reads the first {limit} bytes …]"


def context_text(ctx, policy_name: str, action) -> str:
    """The context of one matching policy ("" when there is none); problems become warnings."""
    source, value = action.source, action.value
    if source == "text":
        return value
    if source == "file":
        return _from_file(ctx, policy_name, value)
    return _from_command(ctx, policy_name, value)


def _from_file(ctx, policy_name: str, relative: str) -> str:
    try:
        data, more = read_fd(open_inside(ctx.root, relative), MAX_FILE_BYTES)
    except FileProblem as exc:
        ctx.warnings.append(f'Cupcake: no context from policy "{policy_name}": cannot read {relative}: {exc}')
        return ""
    text = data.decode("utf-8", "replace").rstrip()
    if more:
        text = f"{text}\n{file_cut_note(MAX_FILE_BYTES)}"
    return text


def _from_command(ctx, policy_name: str, spec: dict) -> str:
    from cupcake.pipeline import answer_text as feedback
    from cupcake.run_command import CommandSpecError, render_feedback, run_command
    from cupcake.run_command.check import template_values

    rehearsal = ctx.options.get("rehearsal")
    if rehearsal is not None and not rehearsal.may_run(f"context {policy_name}: `{spec.get('command')}`"):
        return ""
    values = template_values(ctx)
    head = f'Cupcake: no context from policy "{policy_name}": '
    try:
        result = run_command(spec, values, root=ctx.root, deadline=ctx.deadline, env=ctx.env)
    except CommandSpecError as exc:
        ctx.warnings.append(f"{head}Command `{spec.get('command')}` could not start: {exc}")
        ctx.checks.append(
            {
                "policy": policy_name,
                "command": spec.get("command"),
                "on_failure": "context",
                "ok": False,
                "error": str(exc),
                "stdout": "",
                "stderr": "",
            }
        )
        return ""
    record = result.to_dict()
    record.update(policy=policy_name, on_failure="context")
    ctx.checks.append(record)
    if not result.ok:
        text = head + render_feedback(None, result, values)
        ctx.warnings.append(feedback.cap(text, [text], WARNING_CHARS))
        return ""
    return result.stdout.rstrip()
