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

from cupcake.commands.argv import prepare
from cupcake.commands.errors import CommandSpecError
from cupcake.commands.execute import run_command
from cupcake.commands.feedback import render_feedback
from cupcake.commands.result import CommandResult
from cupcake.commands.template import template_fields
from cupcake.commands.validate import check_command_template

__all__ = [
    "CommandResult",
    "CommandSpecError",
    "check_command_template",
    "prepare",
    "render_feedback",
    "run_command",
    "template_fields",
]
