"""Running the command of a ``run_command`` policy for the evaluation, and recording it."""

from __future__ import annotations


def template_values(ctx) -> dict:
    """What a command and its feedback may use: the agent's command, the file, the tool, the session."""
    event = ctx.incoming
    tool_input = event.tool_input if event is not None else {}
    file_path = next(
        (tool_input[k] for k in ("file_path", "notebook_path", "path") if isinstance(tool_input.get(k), str)), ""
    )
    return {
        "command": tool_input.get("command") if isinstance(tool_input.get("command"), str) else "",
        "file_path": file_path,
        "tool_name": (event.tool if event is not None else None) or "",
        "session_id": (event.session_id if event is not None else None) or "",
        "tool_input": tool_input,
    }


def run_check(ctx, policy_name: str, action) -> tuple[bool, str]:
    """Run the policy's command within the run's deadline: (succeeded, feedback text when it failed)."""
    from cupcake.run_command import CommandSpecError, render_feedback, run_command

    spec, on_failure, template = action.spec, action.on_failure, action.template
    rehearsal = ctx.options.get("rehearsal")
    if rehearsal is not None and not rehearsal.may_run(f"check {policy_name}: `{spec.get('command')}`"):
        return True, ""  # a rehearsal that runs no program: the check is named instead, and the scan goes on
    values = template_values(ctx)
    try:
        result = run_command(spec, values, root=ctx.root, deadline=ctx.deadline, env=ctx.env)
    except CommandSpecError as exc:
        text = f"Command `{spec.get('command')}` could not start: {exc}"
        ctx.checks.append(
            {
                "policy": policy_name,
                "command": spec.get("command"),
                "on_failure": on_failure,
                "ok": False,
                "error": str(exc),
                "stdout": "",
                "stderr": "",
            }
        )
        return False, text
    record = result.to_dict()
    record.update(policy=policy_name, on_failure=on_failure)
    ctx.checks.append(record)
    if result.ok:
        return True, ""
    return False, render_feedback(template, result, values)
