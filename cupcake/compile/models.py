"""The policy language V1 as pydantic models: the one definition of every table of ``cupcake.toml``.

Two things are generated from them and shipped in the package (``python -m cupcake.compile.models``
writes both; a test fails when they no longer match the models):

- ``cupcake.schema.json``, the JSON Schema of the whole file, for editors that read a ``#:schema`` line
  (``cupcake schema`` prints it);
- ``tables.json``, each table's validator as pydantic compiled it (``Model.__pydantic_core_schema__``,
  made plain data), which the compiler validates with (``schema.TableSchema``). A cache rebuild then
  pays for pydantic's validation engine only: importing pydantic and building these models costs more
  than the whole rest of a rebuild (docs/performance.md has the figures).

Strict types (a string is never a number, ``true`` is never 1), unknown keys forbidden. An optional key
is absent, never null: TOML has none, and the JSON Schema says so (``_NoNull``).
"""

from __future__ import annotations

import json
import os
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import GenerateJsonSchema

from cupcake.compile.schema import JSON_SCHEMA_FILE, TABLES_FILE

Table = dict[str, Any]
# A positive number of seconds or days: an integer or a float, never a boolean.
Positive = Annotated[int, Field(gt=0)] | Annotated[float, Field(gt=0)]
Names = str | Annotated[list[str], Field(min_length=1)]


def _config(title: str) -> ConfigDict:
    return ConfigDict(extra="forbid", strict=True, title=title)


class Policy(BaseModel):
    """One ``[[policy]]``: what it matches and what it does."""

    model_config = _config("policy")
    name: str = Field(description="Required, unique across all policy files.")
    description: str | None = Field(None)
    hook_event: str | None = Field(None, description='The event; "PreToolUse" when absent.')
    matcher: str | None = Field(
        None, description='A regex on the tool name (whole match); absent, "" or "*": every tool.'
    )
    agents: list[str] | None = Field(
        None, description="Only for these agents (claude, codex, gemini, copilot, droid, cursor)."
    )
    mode: Literal["enforce", "observe"] | None = Field(
        None, description='"observe": its decisions are recorded in the shadow log, never sent to the agent.'
    )
    conditions: list[Table] | None = Field(None, description="All must hold; absent: always.")
    action: Table


class EvalFeedback(BaseModel):
    """``[settings.eval_feedback]``: read an evaluator's findings back into the agent's context (seed 004)."""

    model_config = _config("eval_feedback")
    enabled: bool | None = Field(None)
    dir: str | None = Field(None, description="Where the eval-*.json files are, relative to the project root.")
    events: list[str] | None = Field(None)
    blocking: bool | None = Field(None)


class Settings(BaseModel):
    """``[settings]``."""

    model_config = _config("settings")
    fail_mode: Literal["open", "closed"] | None = Field(None, description='"closed": any failure of Cupcake blocks.')
    hook_timeout_seconds: Positive | None = Field(None)
    audit_logging: bool | None = Field(None)
    audit_allows: bool | None = Field(None)
    audit_max_bytes: Annotated[int, Field(ge=1024)] | None = Field(None)
    audit_keep: Annotated[int, Field(ge=1)] | None = Field(None)
    self_protection: bool | None = Field(None)
    state_ttl_days: Positive | None = Field(None)
    stop_block_limit: Annotated[int, Field(ge=1)] | None = Field(None)
    approvals: Literal["code", "ask", "off"] | None = Field(
        None,
        description='How a person may let a blocked call through: "code" for `cupcake allow CODE`, "ask", or "off".',
    )
    eval_feedback: EvalFeedback | None = Field(None)


class FileTop(BaseModel):
    """The top of a policy file as the compiler checks it first (``[settings]`` and each ``[[policy]]``
    are then checked on their own, so that one bad policy puts only itself out of service)."""

    model_config = _config("policy file")
    policy_schema_version: Literal["1.0"] | None = Field(None)
    settings: Table | None = Field(None)
    policy: list[Table] | None = Field(None)


# Conditions: one model per ``type``.


class RegexCondition(BaseModel):
    model_config = _config("condition")
    type: Literal["command_regex", "filepath_regex", "file_content_regex"]
    value: str = Field(description="A Python regex, searched (unanchored unless it anchors itself).")


class FieldCondition(BaseModel):
    model_config = _config("condition")
    type: Literal["field"]
    path: str = Field(description='A dotted path into the event, such as "tool_input.url".')
    regex: str | None = Field(None)
    equals: str | int | float | bool | None = Field(None)


class StateCondition(BaseModel):
    """``state_exists`` / ``state_missing``: what the session has done so far (see ``cupcake.stores.state``)."""

    model_config = _config("condition")
    type: Literal["state_exists", "state_missing"]
    tool: str | None = Field(None)
    event: str | None = Field(None)
    path: str | None = Field(None)
    path_regex: str | None = Field(None)
    command: str | None = Field(None)
    success: bool | None = Field(None)
    count: Annotated[int, Field(ge=1)] | None = Field(None)
    within: str | None = Field(None, description='"30s", "10m", "2h", "1d".')


class CommandCondition(BaseModel):
    """``command``: what a Bash line would run, read by ``cupcake.shell`` (see ``command_condition``)."""

    model_config = _config("condition")
    type: Literal["command"]
    program: Names | None = Field(None)
    subcommand: Names | None = Field(None)
    flags: list[str] | None = Field(None)
    not_flags: list[str] | None = Field(None)
    args: Annotated[list[str], Field(min_length=1)] | None = Field(None)
    args_regex: str | None = Field(None)
    path_outside: Annotated[list[str], Field(min_length=1)] | None = Field(None)
    via: Names | None = Field(None)
    piped_from: Names | None = Field(None)


class PathCondition(BaseModel):
    """``path``: the call reads or writes such a path, through any tool (``cupcake.compile.pack_conditions``)."""

    model_config = _config("condition")
    type: Literal["path"]
    access: Literal["read", "write", "any"] | None = Field(None)
    paths: Annotated[list[str], Field(min_length=1)]
    except_: list[str] | None = Field(None, alias="except")
    where: Literal["project", "outside"] | None = Field(None)


class SecretCondition(BaseModel):
    """``secret``: text the call writes holds a secret by detect-secrets' patterns."""

    model_config = _config("condition")
    type: Literal["secret"]
    kinds: list[Literal["key", "keyword", "entropy"]] | None = Field(None, description='Default: ["key"].')


class SqlCondition(BaseModel):
    """``sql``: SQL a database client would run has a statement of one of these kinds."""

    model_config = _config("condition")
    type: Literal["sql"]
    statements: Annotated[list[str], Field(min_length=1)]
    unseen: bool | None = Field(None, description="SQL Cupcake cannot see counts too.")


class HiddenCodeCondition(BaseModel):
    """``hidden_code``: the Bash line hides what it runs."""

    model_config = _config("condition")
    type: Literal["hidden_code"]


class ProjectFileCondition(BaseModel):
    """``project_file``: the project's top directory holds such a file."""

    model_config = _config("condition")
    type: Literal["project_file"]
    paths: Annotated[list[str], Field(min_length=1)]
    except_: list[str] | None = Field(None, alias="except")
    unignored: bool | None = Field(None)


class NotCondition(BaseModel):
    model_config = _config("condition")
    not_: Condition = Field(alias="not")


class AnyCondition(BaseModel):
    model_config = _config("condition")
    any: list[Condition]


Condition = (
    RegexCondition
    | FieldCondition
    | StateCondition
    | CommandCondition
    | PathCondition
    | SecretCondition
    | SqlCondition
    | HiddenCodeCondition
    | ProjectFileCondition
    | NotCondition
    | AnyCondition
)


# Actions: one model per ``type``.


class BlockAction(BaseModel):
    model_config = _config("action")
    type: Literal["block_with_feedback"]
    feedback_message: str


class FeedbackAction(BaseModel):
    model_config = _config("action")
    type: Literal["provide_feedback"]
    message: str


class ApproveAction(BaseModel):
    model_config = _config("action")
    type: Literal["approve"]
    reason: str | None = Field(None)


class AskAction(BaseModel):
    model_config = _config("action")
    type: Literal["ask"]
    reason: str


class WarnAction(BaseModel):
    """``warn``: the call goes ahead; the message is shown to the person and to the agent."""

    model_config = _config("action")
    type: Literal["warn"]
    message: str


class InjectContextAction(BaseModel):
    """``inject_context``: exactly one of text, file, command (checked in ``cupcake.compile.compile_context``)."""

    model_config = _config("action")
    type: Literal["inject_context"]
    text: str | None = Field(None)
    file: str | None = Field(None)
    command: str | None = Field(None)
    timeout: int | float | None = Field(None)
    working_dir: str | None = Field(None)
    env: Table | None = Field(None)
    shell: bool | None = Field(None)
    max_output: int | None = Field(None)


class UpdateStateAction(BaseModel):
    model_config = _config("action")
    type: Literal["update_state"]
    event: str
    data: Table | None = Field(None)


class RunCommandAction(BaseModel):
    """``run_command``: its keys for editors; ``cupcake.run_command`` checks the command itself
    (placeholders, shell syntax), so the compiler does not validate it with this model."""

    model_config = _config("action")
    type: Literal["run_command"]
    command: str
    on_failure: Literal["block", "feedback", "ignore"] | None = Field(None)
    on_failure_feedback: str | None = Field(None)
    timeout: int | float | None = Field(None)
    working_dir: str | None = Field(None)
    env: Table | None = Field(None)
    shell: bool | None = Field(None)
    max_output: int | None = Field(None)


Action = (
    BlockAction
    | FeedbackAction
    | ApproveAction
    | AskAction
    | WarnAction
    | InjectContextAction
    | UpdateStateAction
    | RunCommandAction
)


# The whole file, for editors: the tables above nested where they stand.


class FullPolicy(Policy):
    """A policy with its conditions and action spelled out (the compiler checks those one by one)."""

    model_config = _config("policy")
    conditions: list[Condition] | None = Field(None, description="All must hold; absent: always.")  # type: ignore[assignment]
    action: Action  # type: ignore[assignment]


class Packs(BaseModel):
    model_config = _config("packs")
    disable: list[str] | None = Field(None, description='Built-in rules switched off, by id ("git.force-push").')
    levels: dict[str, Literal["block", "ask", "warn"]] | None = Field(
        None, description="A rule id -> its lane instead of the pack's."
    )
    messages: dict[str, str] | None = Field(None, description="A rule id -> what the agent is told instead.")
    observe: list[str] | None = Field(None, description="Rule ids or whole packs observed instead of enforced.")


class Pipeline(BaseModel):
    model_config = _config("pipeline")
    systems: dict[str, int | bool] | None = Field(
        None, description="A custom system -> its order; a built-in -> false."
    )


class Shadow(BaseModel):
    model_config = _config("shadow")
    candidate: str = Field(
        description="A complete policy file beside cupcake.toml, evaluated beside it, never enforced."
    )


class Telemetry(BaseModel):
    """``[telemetry]``: every decision sent as an OpenTelemetry span (docs/fleet.md). Credentials never go here."""

    model_config = _config("telemetry")
    enabled: bool | None = Field(None, description="Spool every decision for the forwarder.")
    endpoint: str | None = Field(None, description="The OTLP/HTTP base URL (else OTEL_EXPORTER_OTLP_ENDPOINT).")
    traces_endpoint: str | None = Field(None, description="The full URL for spans (…/v1/traces).")
    logs_endpoint: str | None = Field(None, description="The full URL for log records (…/v1/logs).")
    signals: Annotated[list[Literal["traces", "logs"]], Field(min_length=1)] | None = Field(None)
    service_name: Annotated[str, Field(min_length=1)] | None = Field(None)
    headers: dict[str, str] | None = Field(
        None, description="Headers sent with each export, never a credential (those come from the environment)."
    )
    resource: dict[str, str | bool | int | float] | None = Field(None, description="More resource attributes.")
    hash: list[Literal["session", "user", "host"]] | None = Field(None, description="Identifiers sent hashed.")
    interval_seconds: Annotated[int, Field(ge=1)] | Annotated[float, Field(ge=1)] | None = Field(
        None, description="The background forwarder starts at most once per interval."
    )
    max_spool_bytes: Annotated[int, Field(ge=65536)] | None = Field(
        None, description="The spool's bound on disk; the oldest decisions are dropped, with a count, beyond it."
    )
    timeout_seconds: Annotated[int, Field(gt=0, le=300)] | Annotated[float, Field(gt=0, le=300)] | None = Field(None)
    compression: Literal["gzip", "none"] | None = Field(None)


class CupcakeFile(BaseModel):
    """``cupcake.toml``: settings, imports, packs, custom systems and the policies."""

    model_config = _config("cupcake.toml")
    policy_schema_version: Literal["1.0"] | None = Field(None)
    imports: list[str] | None = Field(
        None, description='Other policy files, globs, or built-in packs ("cupcake:recommended").'
    )
    settings: Settings | None = Field(None)
    packs: Packs | None = Field(None)
    pipeline: Pipeline | None = Field(None)
    shadow: Shadow | None = Field(None)
    telemetry: Telemetry | None = Field(None)
    policy: list[FullPolicy] | None = Field(None)


# The tables the compiler validates, by the name ``schema`` gives each.
COMPILED: dict[str, type[BaseModel]] = {
    "policy": Policy,
    "eval_feedback": EvalFeedback,
    "settings": Settings,
    "file": FileTop,
    "regex_condition": RegexCondition,
    "field_condition": FieldCondition,
    "state_condition": StateCondition,
    "command_condition": CommandCondition,
    "block_with_feedback": BlockAction,
    "provide_feedback": FeedbackAction,
    "approve": ApproveAction,
    "ask": AskAction,
    "warn": WarnAction,
    "inject_context": InjectContextAction,
    "update_state": UpdateStateAction,
    "telemetry": Telemetry,
}


class _NoNull(GenerateJsonSchema):
    """TOML has no null: an optional key is absent, so its schema is the value's alone."""

    def nullable_schema(self, schema):
        return self.generate_inner(schema["schema"])


def json_schema() -> dict:
    """The JSON Schema of ``cupcake.toml`` (draft 2020-12), as editors read it."""
    schema = CupcakeFile.model_json_schema(by_alias=True, schema_generator=_NoNull)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def tables() -> dict:
    """Each compiled table's validator as plain data: ``{"config": …, "schema": …}`` by name."""
    out = {}
    for name, model in COMPILED.items():
        core = model.__pydantic_core_schema__
        out[name] = {"config": dict(core["config"]), "schema": _plain(core)}
    return out


def _plain(node):
    """A core schema without what only a model class needs (the class, its hooks): a model becomes the
    fields it checks, which validate into plain data and raise the same errors."""
    if isinstance(node, list):
        return [_plain(item) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("type") == "model":
        inner = _plain(node["schema"])
        inner["extra_behavior"] = node["config"]["extra_fields_behavior"]
        return inner
    return {k: _plain(v) for k, v in node.items() if k not in ("metadata", "ref", "cls", "custom_init", "root_model")}


def dumps(data) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv=None) -> int:
    """Write the two generated files (``--check``: exit 1 when they differ from the models)."""
    import sys

    check = "--check" in (sys.argv[1:] if argv is None else argv)
    stale = []
    for path, data in ((JSON_SCHEMA_FILE, json_schema()), (TABLES_FILE, tables())):
        text = dumps(data)
        try:
            with open(path, encoding="utf-8") as f:
                same = f.read() == text
        except FileNotFoundError:
            same = False
        if same:
            continue
        stale.append(path)
        if not check:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    for path in stale:
        print(("stale: " if check else "wrote ") + os.path.relpath(path))
    return 1 if check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
