"""Running the command of a ``run_command`` action, safely and within limits.

    problems = check_command_template(action)          # when policies are compiled
    result = run_command(action, values, root=root, deadline=deadline)
    if not result.ok:
        text = render_feedback(action.get("on_failure_feedback"), result, values)

``values`` holds what placeholders may use: ``command`` (the agent's Bash command), ``file_path``,
``tool_name``, ``session_id`` and ``tool_input`` (a dict; ``{{tool_input.<field>}}``).
Importing this package is cheap: ``subprocess`` is imported only when a command runs.
"""

from __future__ import annotations

# name -> module that defines it, imported on first use: the hot path imports the checker
# (``run_command.check``) without paying for the executor.
_NAMES = {
    "CommandResult": "result",
    "CommandSpecError": "errors",
    "check_command_template": "validate",
    "prepare": "argv",
    "render_feedback": "failure_text",
    "run_command": "execute",
    "template_fields": "template",
}

__all__ = sorted(_NAMES)


def __getattr__(name):
    module = _NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'cupcake.run_command' has no attribute {name!r}")
    value = getattr(__import__(f"cupcake.run_command.{module}", fromlist=(name,)), name)
    globals()[name] = value
    return value
