"""The policy language V1, validated with pydantic (cold path only: never imported by a warm run).

The tables are defined once, as pydantic models (``cupcake.compile.models``). The compiler validates
each table with the validator pydantic compiled from its model, shipped as plain data
(``tables.json``, written from the models; a test keeps the two the same), so that a cache rebuild
loads pydantic's validation engine (``pydantic_core``) but not its model machinery. Every problem of a
table is raised at once, as pydantic's ``ValidationError``.
"""

from __future__ import annotations

import json
import os

from pydantic_core import SchemaValidator

_HERE = os.path.dirname(os.path.abspath(__file__))
TABLES_FILE = os.path.join(_HERE, "tables.json")  # each table's validator, written from the models
JSON_SCHEMA_FILE = os.path.join(_HERE, "cupcake.schema.json")  # the whole file's JSON Schema, for editors
_compiled: dict = {}


def _table(name: str) -> dict:
    if not _compiled:
        with open(TABLES_FILE, encoding="utf-8") as f:
            _compiled.update(json.load(f))
    return _compiled[name]


class TableSchema:
    """The schema of one TOML table of the language: ``validate(value)`` raises ``ValidationError`` for
    every problem at once; ``keys`` names its keys (for "did you mean" suggestions)."""

    def __init__(self, name: str):
        self.name = name
        self._validator: SchemaValidator | None = None

    @property
    def keys(self) -> dict:
        return dict.fromkeys(_table(self.name)["schema"]["fields"])

    def validate(self, value: object) -> object:
        if self._validator is None:
            table = _table(self.name)
            self._validator = SchemaValidator(table["schema"], table["config"])
        return self._validator.validate_python(value)


POLICY_TABLE = TableSchema("policy")
EVAL_FEEDBACK_TABLE = TableSchema("eval_feedback")
SETTINGS_TABLE = TableSchema("settings")
FILE_TABLE = TableSchema("file")
RegexCondition = TableSchema("regex_condition")
FieldCondition = TableSchema("field_condition")
StateCondition = TableSchema("state_condition")
CommandCondition = TableSchema("command_condition")
BlockAction = TableSchema("block_with_feedback")
FeedbackAction = TableSchema("provide_feedback")
ApproveAction = TableSchema("approve")
AskAction = TableSchema("ask")
WarnAction = TableSchema("warn")
InjectContextAction = TableSchema("inject_context")
UpdateStateAction = TableSchema("update_state")

REGEX_CONDITIONS = ("command_regex", "filepath_regex", "file_content_regex")
# The packs' conditions (``cupcake.compile.pack_conditions``): checked there, not by a model.
PACK_CONDITIONS = ("path", "secret", "sql", "hidden_code", "project_file")
CONDITION_TYPES = REGEX_CONDITIONS + ("command", "field", "state_exists", "state_missing") + PACK_CONDITIONS
COMBINATORS = ("not", "any")


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
