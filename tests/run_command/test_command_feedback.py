"""The feedback text for a failed command, default and templated."""

from __future__ import annotations

import pytest

from cupcake.run_command import CommandResult, render_feedback

VALUES = {
    "command": "git commit -m wip",
    "file_path": "src/lib.rs",
    "tool_name": "Bash",
    "tool_input": {"command": "git commit -m wip", "timeout": 5},
}


def failed(stdout: str = "", stderr: str = "", exit_code: int = 1) -> CommandResult:
    return CommandResult("cargo test", ["cargo", "test"], exit_code=exit_code, stdout=stdout, stderr=stderr)


def timed_out(stdout: str = "", stderr: str = "", timeout: float = 60.0) -> CommandResult:
    return CommandResult("cargo test", ["cargo", "test"], timed_out=True, timeout=timeout, stdout=stdout, stderr=stderr)


NOT_STARTED = CommandResult("cargo test", ["cargo", "test"], not_started=True, error="cargo was not found on PATH")


@pytest.mark.parametrize(
    ("result", "text"),
    [
        (failed(stderr="error[E0308]\n"), "Command `cargo test` failed (exit 1):\nerror[E0308]"),
        (failed(stdout="1 failed\n"), "Command `cargo test` failed (exit 1):\n1 failed"),
        (
            failed(stdout="running 2 tests\n", stderr="boom\n", exit_code=101),
            "Command `cargo test` failed (exit 101):\nrunning 2 tests\nboom",
        ),
        (failed(), "Command `cargo test` failed (exit 1):"),
        (failed(stderr="x\n", exit_code=-9), "Command `cargo test` failed (killed by signal SIGKILL):\nx"),
        (timed_out(stdout="test a ... ok\n"), "Command `cargo test` timed out after 60s\ntest a ... ok"),
        (timed_out(timeout=2.345), "Command `cargo test` timed out after 2.3s"),
        (NOT_STARTED, "Command `cargo test` could not start: cargo was not found on PATH"),
    ],
)
def test_default_texts(result: CommandResult, text: str) -> None:
    assert render_feedback(None, result, VALUES) == text


def test_seed_003_template() -> None:
    template = "Tests failed after your edit. Please fix them. Failing tests:\n{{stderr}}"
    assert render_feedback(template, failed(stdout="ok\n", stderr="test_a FAILED\n"), VALUES) == (
        "Tests failed after your edit. Please fix them. Failing tests:\ntest_a FAILED"
    )


def test_template_values_and_unknown_placeholders() -> None:
    template = (
        "{{tool_name}} `{{command}}` on {{file_path}} (timeout {{tool_input.timeout}}): exit {{exit_code}}, "
        "out={{stdout}} {{nope}}"
    )
    assert render_feedback(template, failed(stdout="o\n", exit_code=2), VALUES) == (
        "Bash `git commit -m wip` on src/lib.rs (timeout 5): exit 2, out=o {{nope}}"
    )


def test_a_template_still_says_timed_out_or_not_started() -> None:
    template = "Tests failed:\n{{stderr}}"
    assert render_feedback(template, timed_out(stderr="partial\n"), VALUES) == (
        "Tests failed:\npartial\nCommand `cargo test` timed out after 60s"
    )
    assert render_feedback(template, NOT_STARTED, VALUES) == (
        "Tests failed:\nCommand `cargo test` could not start: cargo was not found on PATH"
    )
    assert render_feedback("Check failed ({{reason}}), exit {{exit_code}}", timed_out(), VALUES) == (
        "Check failed (Command `cargo test` timed out after 60s), exit none"
    )


def test_rendering_never_raises() -> None:
    assert render_feedback(123, failed(stderr="e"), None) == "Command `cargo test` failed (exit 1):\ne"
    assert render_feedback("{{tool_input.x}}{{command}}|", failed(), None) == "|"
    assert render_feedback("x", object(), VALUES) == "Command `?` failed"
