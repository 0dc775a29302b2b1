"""The policy language V1, validated with pydantic's validation engine (cold path only: never
imported by a warm run).

Each table of the language is a ``pydantic_core`` schema compiled on first use. These are the
schemas ``pydantic.BaseModel`` classes would generate (strict types, unknown keys forbidden), and
they raise the same ``ValidationError``. Building model classes instead costs about 100 ms more
on every cache rebuild: pydantic's class machinery and its plugin loader (``importlib.metadata``).
"""

from __future__ import annotations

from pydantic_core import SchemaValidator
from pydantic_core import core_schema as cs


class TableSchema:
    """The schema of one TOML table of the language (a ``pydantic_core`` typed-dict schema):
    ``validate(value)`` raises ``ValidationError`` for every problem at once; ``keys`` names its keys
    (for "did you mean" suggestions)."""

    def __init__(self, title: str, fields: dict, required=()):
        self.title = title
        self.keys = dict.fromkeys(fields)
        self._fields = fields
        self._required = frozenset(required)
        self._validator = None

    def core_schema(self):
        return cs.typed_dict_schema(
            {name: cs.typed_dict_field(kind, required=name in self._required) for name, kind in self._fields.items()},
            extra_behavior="forbid",
        )

    def validate(self, value):
        if self._validator is None:
            self._validator = SchemaValidator(self.core_schema(), cs.CoreConfig(title=self.title, strict=True))
        return self._validator.validate_python(value)


def _str():
    return cs.str_schema(strict=True)


def _bool():
    return cs.bool_schema(strict=True)


def _int(**limits):
    return cs.int_schema(strict=True, **limits)


def _number(**limits):
    return cs.union_schema([cs.int_schema(strict=True, **limits), cs.float_schema(strict=True, **limits)])


def _table():
    return cs.dict_schema()


def _literal(*values):
    return cs.literal_schema(list(values))


POLICY_TABLE = TableSchema(
    "policy",
    {
        "name": _str(),
        "description": _str(),
        "hook_event": _str(),
        "matcher": _str(),
        "agents": cs.list_schema(_str()),
        "conditions": cs.list_schema(_table()),
        "action": _table(),
    },
    required=("name", "action"),
)

# ``[settings.eval_feedback]``: read an evaluator's findings back into the agent's context (seed 004).
EVAL_FEEDBACK_TABLE = TableSchema(
    "eval_feedback",
    {"enabled": _bool(), "dir": _str(), "events": cs.list_schema(_str()), "blocking": _bool()},
)

SETTINGS_TABLE = TableSchema(
    "settings",
    {
        "fail_mode": _literal("open", "closed"),
        "hook_timeout_seconds": _number(gt=0),
        "audit_logging": _bool(),
        "audit_allows": _bool(),
        "audit_max_bytes": _int(ge=1024),
        "audit_keep": _int(ge=1),
        "self_protection": _bool(),
        "state_ttl_days": _number(gt=0),
        "stop_block_limit": _int(ge=1),
        "eval_feedback": EVAL_FEEDBACK_TABLE.core_schema(),
    },
)

FILE_TABLE = TableSchema(
    "policy file",
    {
        "policy_schema_version": _literal("1.0"),
        "settings": _table(),
        "policy": cs.list_schema(_table()),
    },
)

# Conditions: one table per ``type``.
RegexCondition = TableSchema("condition", {"type": _str(), "value": _str()}, required=("type", "value"))

FieldCondition = TableSchema(
    "condition",
    {
        "type": _literal("field"),
        "path": _str(),
        "regex": _str(),
        "equals": cs.union_schema([_str(), _int(), cs.float_schema(strict=True), _bool()]),
    },
    required=("type", "path"),
)

# ``state_exists`` / ``state_missing``: what the session has done so far (see ``cupcake.stores.state``).
StateCondition = TableSchema(
    "condition",
    {
        "type": _literal("state_exists", "state_missing"),
        "tool": _str(),
        "event": _str(),
        "path": _str(),
        "path_regex": _str(),
        "command": _str(),
        "success": _bool(),
        "count": _int(ge=1),
        "within": _str(),
    },
    required=("type",),
)


def _names():
    return cs.union_schema([_str(), cs.list_schema(_str(), min_length=1)])


# ``command``: what a Bash line would run, read by ``cupcake.shell`` (see ``command_condition``).
CommandCondition = TableSchema(
    "condition",
    {
        "type": _literal("command"),
        "program": _names(),
        "subcommand": _names(),
        "flags": cs.list_schema(_str()),
        "not_flags": cs.list_schema(_str()),
        "args": cs.list_schema(_str(), min_length=1),
        "args_regex": _str(),
        "path_outside": cs.list_schema(_str(), min_length=1),
        "via": _names(),
        "piped_from": _names(),
    },
    required=("type",),
)

REGEX_CONDITIONS = ("command_regex", "filepath_regex", "file_content_regex")
# The packs' conditions (``cupcake.compile.pack_conditions``): checked there, not by a model.
PACK_CONDITIONS = ("path", "secret", "sql", "hidden_code", "project_file")
CONDITION_TYPES = REGEX_CONDITIONS + ("command", "field", "state_exists", "state_missing") + PACK_CONDITIONS
COMBINATORS = ("not", "any")


# Actions: one table per ``type``.
BlockAction = TableSchema(
    "action",
    {"type": _literal("block_with_feedback"), "feedback_message": _str()},
    required=("type", "feedback_message"),
)
FeedbackAction = TableSchema(
    "action", {"type": _literal("provide_feedback"), "message": _str()}, required=("type", "message")
)
ApproveAction = TableSchema("action", {"type": _literal("approve"), "reason": _str()}, required=("type",))
AskAction = TableSchema("action", {"type": _literal("ask"), "reason": _str()}, required=("type", "reason"))
# ``warn``: the call goes ahead; the message is shown to the person and to the agent (the packs' warn level).
WarnAction = TableSchema("action", {"type": _literal("warn"), "message": _str()}, required=("type", "message"))
# ``inject_context``: exactly one of text, file, command (checked in ``cupcake.inject_context.compile``).
InjectContextAction = TableSchema(
    "action",
    {
        "type": _literal("inject_context"),
        "text": _str(),
        "file": _str(),
        "command": _str(),
        "timeout": _number(),
        "working_dir": _str(),
        "env": _table(),
        "shell": _bool(),
        "max_output": _int(),
    },
    required=("type",),
)
UpdateStateAction = TableSchema(
    "action", {"type": _literal("update_state"), "event": _str(), "data": _table()}, required=("type", "event")
)


ACTION_TABLES = {
    "block_with_feedback": BlockAction,
    "provide_feedback": FeedbackAction,
    "approve": ApproveAction,
    "ask": AskAction,
    "warn": WarnAction,
    "inject_context": InjectContextAction,
}
# The keys of inject_context that only make sense with ``command``.
CONTEXT_COMMAND_KEYS = ("timeout", "working_dir", "env", "shell", "max_output")
CONTEXT_SOURCES = ("text", "file", "command")
# run_command is checked by cupcake.run_command (its keys, placeholders and argv), not by a model.
RUN_COMMAND_KEYS = (
    "type",
    "command",
    "on_failure",
    "on_failure_feedback",
    "timeout",
    "working_dir",
    "env",
    "shell",
    "max_output",
)
ON_FAILURE = ("block", "feedback", "ignore")
ACTION_TYPES = tuple(ACTION_TABLES) + ("run_command", "update_state")
STATE_CONDITIONS = ("state_exists", "state_missing")
