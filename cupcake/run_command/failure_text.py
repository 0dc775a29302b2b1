"""The text the agent is shown when a command fails (``on_failure_feedback``)."""

from __future__ import annotations

from cupcake.run_command.template import field_value, fill, is_value_field, template_fields


def seconds_text(seconds: float) -> str:
    """``60``, ``2.5``, ``0``: whole seconds without a fraction, else one decimal."""
    rounded = round(seconds, 1)
    return str(int(rounded)) if rounded == int(rounded) else f"{rounded:.1f}"


def exit_text(exit_code: int) -> str:
    if exit_code >= 0:
        return f"exit {exit_code}"
    import signal

    try:
        name = signal.Signals(-exit_code).name
    except ValueError:
        name = str(-exit_code)
    return f"killed by signal {name}"


def reason_line(result) -> str:
    """``Command `cargo test` failed (exit 1)`` / ``… timed out after 60s`` / ``… could not start: why``."""
    head = f"Command `{result.command}`"
    if result.not_started:
        return f"{head} could not start: {result.error}"
    if result.timed_out:
        line = f"{head} timed out after {seconds_text(result.timeout)}s"
        return f"{line} ({result.error})" if result.error else line
    if result.exit_code == 0:
        return f"{head} succeeded"
    return f"{head} failed ({exit_text(result.exit_code)})"


def output_tail(result) -> str:
    """stderr, or stdout when stderr is empty; both (stdout first) when both have text."""
    parts = [text.rstrip() for text in (result.stdout, result.stderr) if text and text.strip()]
    return "\n".join(parts)


def render_feedback(template: str | None, result, values: dict) -> str:
    """The feedback for a failed command; never raises.

    No template: ``Command `<command>` failed (exit <n>):`` and, on the next line, the tail of its
    output; ``Command `<command>` timed out after <t>s`` (and the output on the next lines);
    ``Command `<command>` could not start: <reason>``. ``<command>`` is the policy's command string.

    A template may use ``{{stdout}}``, ``{{stderr}}`` (tails, trailing whitespace removed),
    ``{{exit_code}}`` (``none`` when there is none), ``{{reason}}`` (the first line above, without
    the colon) and the event's values (``{{command}}`` is the agent's command, ``{{file_path}}``,
    ``{{tool_input.<field>}}``, …); an unknown placeholder stays as written. When the command timed
    out or could not start and the template has no ``{{reason}}``, the reason line is appended.
    Trailing whitespace is removed from the text.
    """
    try:
        reason = reason_line(result)
        if not isinstance(template, str) or not template.strip():
            if result.not_started:
                return reason
            tail = output_tail(result)
            if result.timed_out:
                return f"{reason}\n{tail}" if tail else reason
            return f"{reason}:\n{tail}" if tail else f"{reason}:"
        own = {
            "stdout": (result.stdout or "").rstrip(),
            "stderr": (result.stderr or "").rstrip(),
            "exit_code": "none" if result.exit_code is None else str(result.exit_code),
            "reason": reason,
        }
        if not isinstance(values, dict):
            values = {}

        def lookup(name: str) -> str | None:
            if name in own:
                return own[name]
            return field_value(name, values) if is_value_field(name) else None

        text = fill(template, lookup).rstrip()
        if (result.timed_out or result.not_started) and "reason" not in template_fields(template):
            text = f"{text}\n{reason}" if text else reason
        return text
    except Exception:  # noqa: BLE001 - feedback must always exist
        return f"Command `{getattr(result, 'command', '?')}` failed"
