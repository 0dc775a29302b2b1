"""The policy language V1, validated with pydantic (cold path only: never imported by a warm run)."""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class PolicyModel(_Table):
    name: StrictStr
    description: Optional[StrictStr] = None
    hook_event: StrictStr = "PreToolUse"
    matcher: Optional[StrictStr] = None
    conditions: list[dict] = []
    action: dict


class EvalFeedbackModel(_Table):
    """``[settings.eval_feedback]``: read an evaluator's findings back into the agent's context (seed 004)."""

    enabled: StrictBool = True
    dir: StrictStr = "logs/evals"
    events: list[StrictStr] = ["UserPromptSubmit", "SessionStart"]
    blocking: StrictBool = False


class SettingsModel(_Table):
    fail_mode: Literal["open", "closed"] = "open"
    hook_timeout_seconds: Union[StrictInt, StrictFloat] = 600
    audit_logging: StrictBool = False
    audit_allows: StrictBool = False
    audit_max_bytes: Annotated[StrictInt, Field(ge=1024)] = 10 * 1024 * 1024
    audit_keep: Annotated[StrictInt, Field(ge=1)] = 5
    self_protection: StrictBool = True
    state_ttl_days: Annotated[Union[StrictInt, StrictFloat], Field(gt=0)] = 7
    eval_feedback: Optional[EvalFeedbackModel] = None


class FileModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    policy_schema_version: Literal["1.0"] = "1.0"
    settings: dict = {}
    policy: list[dict] = []


# Conditions: one model per ``type``.
class RegexCondition(_Table):
    type: StrictStr
    value: StrictStr


class FieldCondition(_Table):
    type: Literal["field"]
    path: StrictStr
    regex: Optional[StrictStr] = None
    equals: Union[StrictStr, StrictInt, StrictFloat, StrictBool, None] = None


class StateCondition(_Table):
    """``state_exists`` / ``state_missing``: what the session has done (see policy/state_conditions.py)."""

    type: Literal["state_exists", "state_missing"]
    tool: Optional[StrictStr] = None
    event: Optional[StrictStr] = None
    path: Optional[StrictStr] = None
    path_regex: Optional[StrictStr] = None
    command: Optional[StrictStr] = None
    success: StrictBool = True
    count: Annotated[StrictInt, Field(ge=1)] = 1
    within: Optional[StrictStr] = None


REGEX_CONDITIONS = ("command_regex", "filepath_regex", "file_content_regex")
CONDITION_TYPES = REGEX_CONDITIONS + ("field", "state_exists", "state_missing")
COMBINATORS = ("not", "any")


# Actions: one model per ``type``.
class BlockAction(_Table):
    type: Literal["block_with_feedback"]
    feedback_message: StrictStr


class FeedbackAction(_Table):
    type: Literal["provide_feedback"]
    message: StrictStr


class ApproveAction(_Table):
    type: Literal["approve"]
    reason: Optional[StrictStr] = None


class AskAction(_Table):
    type: Literal["ask"]
    reason: StrictStr


class InjectContextAction(_Table):
    """Context for the model: exactly one of ``text``, ``file`` (relative to the project root) or
    ``command`` (its stdout; the command keys of run_command shape how it runs)."""

    type: Literal["inject_context"]
    text: Optional[StrictStr] = None
    file: Optional[StrictStr] = None
    command: Optional[StrictStr] = None
    timeout: Union[StrictInt, StrictFloat, None] = None
    working_dir: Optional[StrictStr] = None
    env: Optional[dict] = None
    shell: Optional[StrictBool] = None
    max_output: Optional[StrictInt] = None


class UpdateStateAction(_Table):
    type: Literal["update_state"]
    event: StrictStr
    data: Optional[dict] = None


ACTION_MODELS = {
    "block_with_feedback": BlockAction,
    "provide_feedback": FeedbackAction,
    "approve": ApproveAction,
    "ask": AskAction,
    "inject_context": InjectContextAction,
}
# The keys of inject_context that only make sense with ``command``.
CONTEXT_COMMAND_KEYS = ("timeout", "working_dir", "env", "shell", "max_output")
CONTEXT_SOURCES = ("text", "file", "command")
# Named by the language, built by later work: loading one is a clear error, never a silent no-op.
ACTIONS_NOT_YET = ()
# run_command is checked by cupcake.commands (its keys, placeholders and argv), not by a model.
RUN_COMMAND_KEYS = (
    "type", "command", "on_failure", "on_failure_feedback", "timeout", "working_dir", "env", "shell", "max_output",
)  # fmt: skip
ON_FAILURE = ("block", "feedback", "ignore")
ACTION_TYPES = tuple(ACTION_MODELS) + ("run_command", "update_state") + ACTIONS_NOT_YET
CONDITIONS_NOT_YET = ()
STATE_CONDITIONS = ("state_exists", "state_missing")
