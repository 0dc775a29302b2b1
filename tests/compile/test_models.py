"""The policy language's pydantic models: the files generated from them are current, the JSON Schema
that editors read accepts what the compiler accepts and flags what it refuses, and `cupcake schema`
prints it through the installed executable."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import jsonschema
import pytest
import tomli

from cupcake.compile import models
from cupcake.compile.compiler import compile_files
from cupcake.compile.schema import JSON_SCHEMA_FILE, RUN_COMMAND_KEYS, TABLES_FILE

GOOD = """\
#:schema ./cupcake.schema.json
policy_schema_version = "1.0"
imports = ["cupcake:recommended"]

[settings]
fail_mode = "closed"
hook_timeout_seconds = 120
audit_logging = true
state_ttl_days = 1.5

[settings.eval_feedback]
dir = "logs/evals"
events = ["UserPromptSubmit"]

[packs]
disable = ["git.force-push-with-lease"]
messages = { "git.force-push" = "Open a pull request instead." }

[pipeline.systems]
audit_write = false

[[policy]]
name = "No force pushes"
matcher = "Bash"
conditions = [{ type = "command", program = "git", subcommand = "push", flags = ["-f|--force"] }]
action = { type = "block_with_feedback", feedback_message = "No force pushes" }

[[policy]]
name = "Read before editing"
matcher = "Edit|Write"
conditions = [
  { type = "filepath_regex", value = "file\\\\.xyz" },
  { not = { type = "state_exists", tool = "Read", path = "filexyz.md", within = "2h" } },
  { any = [{ type = "field", path = "tool_input.url", equals = 3 }, { type = "file_content_regex", value = "x" }] },
]
action = { type = "ask", reason = "Read filexyz.md first" }

[[policy]]
name = "Tests pass"
hook_event = "PostToolUse"
action = { type = "run_command", command = "pytest -q", on_failure = "feedback", timeout = 60 }

[[policy]]
name = "House rules"
hook_event = "SessionStart"
action = { type = "inject_context", file = "docs/rules.md" }
"""

# (what is wrong, a replacement that makes it so): each is an error to the compiler and to the schema.
BAD = [
    ("an unknown fail_mode", 'fail_mode = "closed"', 'fail_mode = "maybe"'),
    ("a timeout that is not a number", "hook_timeout_seconds = 120", "hook_timeout_seconds = true"),
    ("an unknown settings key", "audit_logging = true", "audit_loging = true"),
    ("a policy without a name", 'name = "No force pushes"', 'description = "no name"'),
    ("an unknown action type", 'type = "block_with_feedback"', 'type = "blok"'),
    ("a block without its message", 'feedback_message = "No force pushes"', 'message = "No force pushes"'),
    ("an unknown key in a command condition", 'flags = ["-f|--force"]', 'flag = ["-f|--force"]'),
    ("a state count below 1", 'within = "2h"', "count = 0"),
    ("an unknown on_failure", 'on_failure = "feedback"', 'on_failure = "sometimes"'),
    ("a schema version Cupcake does not know", 'policy_schema_version = "1.0"', 'policy_schema_version = "2.0"'),
]


def validator():
    with open(JSON_SCHEMA_FILE, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def compiled_errors(tmp_path, text: str) -> list:
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "rules.md").write_text("rules\n")
    path = tmp_path / "cupcake.toml"
    path.write_text(text)
    out = compile_files([str(path), str(tmp_path / "none.toml")], str(tmp_path), {"HOME": str(tmp_path)})
    return [p for p in out["problems"] if p["severity"] == "error"]


def test_the_shipped_files_are_what_the_models_generate():
    """`python -m cupcake.compile.models` writes them; run it after changing a model."""
    for path, data in ((JSON_SCHEMA_FILE, models.json_schema()), (TABLES_FILE, models.tables())):
        with open(path, encoding="utf-8") as f:
            assert f.read() == models.dumps(data), f"{path} is stale: run python -m cupcake.compile.models"


def test_run_commands_keys_are_the_models():
    assert set(RUN_COMMAND_KEYS) == set(models.RunCommandAction.model_fields)


def test_a_good_file_loads_and_the_schema_accepts_it(tmp_path):
    assert compiled_errors(tmp_path, GOOD) == []
    assert list(validator().iter_errors(tomli.loads(GOOD))) == []


@pytest.mark.parametrize("what, old, new", BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_is_refused_by_the_compiler_and_flagged_by_the_schema(tmp_path, what, old, new):
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    assert compiled_errors(tmp_path, text), what
    assert list(validator().iter_errors(tomli.loads(text))), what


def test_every_built_in_condition_and_action_type_is_in_the_schema():
    from cupcake.compile.schema import ACTION_TYPES, CONDITION_TYPES

    text = json.dumps(validator().schema)
    for name in CONDITION_TYPES + ACTION_TYPES:
        assert f'"const": "{name}"' in text or f'"{name}"' in text, name


def test_the_cold_path_validates_without_pydantics_models(tmp_path):
    """A cache rebuild validates with the shipped tables: pydantic's model machinery is never imported."""
    (tmp_path / "cupcake.toml").write_text(GOOD.replace("cupcake:recommended", "cupcake:git"))
    code = (
        "import sys\n"
        "from cupcake.compile.compiler import compile_files\n"
        f"compile_files([{str(tmp_path / 'cupcake.toml')!r}], {str(tmp_path)!r}, {{'HOME': {str(tmp_path)!r}}})\n"
        "print(sorted(m for m in ('pydantic', 'pydantic.main', 'pydantic_core') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['pydantic_core']"


def test_cupcake_schema_prints_it(tmp_path):
    done = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "cupcake"), "schema"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == validator().schema
