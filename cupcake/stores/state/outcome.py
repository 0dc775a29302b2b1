"""Whether a finished tool call counts as done for ``state_exists`` / ``state_missing``.

Only a PostToolUse whose response does not report a failure counts: PostToolUseFailure never does, nor
a PostToolUse whose ``tool_response`` says the call was interrupted, failed or exited non-zero (the forms
agents use: ``interrupted``, ``success: false``, ``is_error``/``isError``, a ``resultType`` other than
"success", a non-zero ``exit_code``/``exitCode``/``returncode``). A condition can still ask for failures
with ``success = false``."""

from __future__ import annotations


def tool_succeeded(event_name: str, event) -> bool:
    if event_name != "PostToolUse" or event is None or event.error:
        return False
    response = event.tool_response
    if not isinstance(response, dict):
        return True
    if response.get("interrupted") is True or response.get("success") is False:
        return False
    if response.get("is_error") is True or response.get("isError") is True:
        return False
    kind = response.get("resultType")
    if isinstance(kind, str) and kind.lower() != "success":
        return False
    for key in ("exit_code", "exitCode", "returncode"):
        code = response.get(key)
        if isinstance(code, int) and not isinstance(code, bool) and code != 0:
            return False
    return True
