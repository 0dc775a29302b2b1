"""Placeholders, checks and argv building for run_command: no process is started here."""

from __future__ import annotations

import pytest

from cupcake.run_command import CommandSpecError, check_command_template, prepare, template_fields
from cupcake.run_command.errors import UnsafeValue

AGENT_COMMAND = "npm install x; rm -rf ~"

# Values an agent could send to break out of an argument: each must arrive as exactly one argument.
HOSTILE = [
    "a; touch PWNED",
    "a && touch PWNED",
    "$(touch PWNED)",
    "`touch PWNED`",
    "it's \"quoted\" 'twice'",
    "line1\nline2; touch PWNED",
    "-rf ~ --no-preserve-root",
    "{{session_id}}",
    "  spaces  ",
    "",
]


def test_template_fields_names_every_placeholder() -> None:
    command = "run {{command}} '{{ file_path }}' --x={{tool_input.edits.0.old_string}} {{command}} {{.State}}"
    assert template_fields(command) == {"command", "file_path", "tool_input.edits.0.old_string"}
    assert template_fields("cargo test") == set()


def test_seed_003_notify_command_is_one_argument() -> None:
    spec = {"command": "notify_script.sh '{{command}}'"}
    assert prepare(spec, {"command": AGENT_COMMAND}) == ["notify_script.sh", AGENT_COMMAND]


@pytest.mark.parametrize("value", HOSTILE)
def test_each_placeholder_fills_only_its_own_argument(value: str) -> None:
    spec = {"command": "check '{{command}}' {{command}} \"pre {{command}} post\" --v={{command}} {{tool_name}}"}
    if value.startswith("-"):  # it would be an option of `check`
        with pytest.raises(UnsafeValue, match=r"the value of \{\{command\}\} starts with '-'"):
            prepare(spec, {"command": value, "tool_name": "Bash"})
        return
    argv = prepare(spec, {"command": value, "tool_name": "Bash"})
    assert argv == ["check", value, value, f"pre {value} post", f"--v={value}", "Bash"]


@pytest.mark.parametrize("value", HOSTILE)
def test_shell_mode_passes_values_as_positional_parameters(value: str) -> None:
    spec = {"command": "check '{{command}}' {{command}} \"pre {{command}} post\" {{file_path}}", "shell": True}
    if value.startswith("-"):  # a whole word of the script: it would be an option of `check`
        with pytest.raises(UnsafeValue, match=r"the value of \{\{command\}\} starts with '-'"):
            prepare(spec, {"command": value, "file_path": "a b.rs"})
        return
    argv = prepare(spec, {"command": value, "file_path": "a b.rs"})
    assert argv == ["sh", "-c", 'check \'\'"$1"\'\' "$1" "pre ${1} post" "$2"', "sh", value, "a b.rs"]


def test_shell_mode_numbers_ten_and_more_with_braces() -> None:
    command = " ".join(["x"] + [f"{{{{tool_input.f{i}}}}}" for i in range(11)])
    argv = prepare({"command": command, "shell": True}, {"tool_input": {f"f{i}": str(i) for i in range(11)}})
    assert argv[2] == 'x "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10}" "${11}"'
    assert argv[4:] == [str(i) for i in range(11)]


def test_tool_input_fields_and_missing_values() -> None:
    values = {
        "tool_input": {"file_path": "src/a b.rs", "limit": 3, "flags": {"x": True}, "edits": [{"old": "o"}]},
        "session_id": None,
    }
    command = (
        "t {{tool_input.file_path}} {{tool_input.limit}} {{tool_input.flags}} {{tool_input.edits.0.old}} "
        "{{tool_input.nope}} {{session_id}} {{file_path}}"
    )
    assert prepare({"command": command}, values) == ["t", "src/a b.rs", "3", '{"x": true}', "o", "", "", ""]


def test_check_reports_every_problem_by_key() -> None:
    spec = {
        "command": "{{command}} {{ file_path }} {{stdout}}",
        "on_failure_feedback": "{{stderr}} {{nope}}",
        "timeout": 0,
        "working_dir": "../elsewhere",
        "env": {"A": 1, "B=C": "x"},
        "shell": "yes",
        "max_output": -5,
    }
    assert check_command_template(spec) == [
        "timeout: must be a positive number of seconds, got 0",
        "working_dir: '../elsewhere' leads outside the project root",
        "env: the value of A must be a string, got 1",
        "env: 'B=C' is not a valid variable name",
        "shell: must be true or false, got 'yes'",
        "max_output: must be a positive whole number of bytes, got -5",
        "command: unknown placeholder {{stdout}}; a command can use {{command}}, {{file_path}}, {{tool_name}}, "
        "{{session_id}}, {{tool_input}} and {{tool_input.<field>}}",
        "command: {{ file_path }} is broken up by spaces or quotes when the command is split into arguments; "
        "write each placeholder as {{name}} inside one argument",
        "command: the program to run ('{{command}}') contains a placeholder; name the program in the policy "
        "and pass values to it as arguments",
        "on_failure_feedback: unknown placeholder {{nope}}; feedback can use {{command}}, {{file_path}}, "
        "{{tool_name}}, {{session_id}}, {{tool_input}}, {{tool_input.<field>}}, {{stdout}}, {{stderr}}, "
        "{{exit_code}} and {{reason}}",
    ]


def test_check_accepts_the_seed_policies() -> None:
    assert (
        check_command_template(
            {
                "type": "run_command",
                "command": "cargo test",
                "on_failure_feedback": "Tests failed after your edit. Please fix them. Failing tests:\n{{stderr}}",
            }
        )
        == []
    )
    assert check_command_template({"command": "notify_script.sh '{{command}}'"}) == []
    assert check_command_template({"command": "docker inspect --format '{{.State.Status}}' web"}) == []


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"command": "lint {{stdout}}"}, "command: unknown placeholder {{stdout}}"),
        (
            {"command": "lint 'unclosed"},
            'command: cannot be split into arguments (No closing quotation): "lint \'unclosed"',
        ),
        ({"command": "   "}, "command: must be a non-empty string"),
        (
            {"command": "lint", "working_dir": "/etc"},
            "working_dir: must be relative to the project root, got the absolute path '/etc'",
        ),
        ({"command": "lint", "timeout": "60"}, "timeout: must be a positive number of seconds, got '60'"),
    ],
)
def test_prepare_refuses_a_wrong_spec(spec: dict, message: str) -> None:
    with pytest.raises(CommandSpecError) as caught:
        prepare(spec, {})
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)


def test_a_value_is_never_expanded_again() -> None:
    argv = prepare({"command": "t {{command}}-{{session_id}}"}, {"command": "{{session_id}}", "session_id": "s1"})
    assert argv == ["t", "{{session_id}}-s1"]
