"""Checking a ``run_command`` action when policies are compiled, before anything runs."""

from __future__ import annotations

from cupcake.run_command.argv import command_problems
from cupcake.run_command.spec import spec_problems
from cupcake.run_command.template import RESULT_FIELDS, describe_fields, is_value_field, ordered_fields


def check_command_template(spec: dict) -> list[str]:
    """Every problem of the action, as messages naming the key (``command: unknown placeholder {{x}}; …``).

    Checks ``command`` (placeholders, splitting, the program not being a placeholder),
    ``on_failure_feedback`` (placeholders) and the keys ``timeout``, ``working_dir``, ``env``, ``shell``,
    ``max_output``. An empty list means ``run_command`` will not raise ``CommandSpecError`` for it,
    except for a working_dir that a symlink leads outside the root.
    """
    problems = spec_problems(spec)
    if not isinstance(spec, dict):
        return problems
    command = spec.get("command")
    if isinstance(command, str) and command.strip():
        problems += command_problems(command, spec.get("shell") is True)
    feedback = spec.get("on_failure_feedback")
    if feedback is not None:
        if not isinstance(feedback, str):
            problems.append(f"on_failure_feedback: must be a string, got {type(feedback).__name__}")
        else:
            problems += [
                f"on_failure_feedback: unknown placeholder {{{{{name}}}}}; feedback can use {describe_fields(True)}"
                for name in ordered_fields(feedback)
                if not is_value_field(name) and name not in RESULT_FIELDS
            ]
    return problems
