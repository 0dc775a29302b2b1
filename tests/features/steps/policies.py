"""Policy files: the project's and the user's cupcake.toml, written, broken and changed."""

from __future__ import annotations

import json

from pytest_bdd import given, parsers, when

ACTIONS = {
    "soft": '{ type = "provide_feedback", message = "lint" }',
    "block": '{ type = "block_with_feedback", feedback_message = "stop" }',
    "approve": '{ type = "approve", reason = "trusted" }',
    "ask": '{ type = "ask", reason = "a person decides" }',
}


@given(parsers.parse("the project policy:"))
def project_policy(project, docstring):
    """The project's cupcake.toml, exactly as written."""
    project.write_policy(docstring)


@given(parsers.parse("the user policy:"))
def user_policy(project, docstring):
    """~/.claude/cupcake.toml, exactly as written."""
    project.write_user_policy(docstring)


@given("no policy file")
def no_policy_file(project):
    """The project has no cupcake.toml."""
    assert not (project.root / "cupcake.toml").exists()


@given(parsers.parse('a policy on "{event}" whose action is {action}'))
def policy_on_event(project, event, action):
    """A project policy on the event with a soft, block, approve or ask action."""
    project.write_policy(f'[[policy]]\nname = "the policy"\nhook_event = "{event}"\naction = {ACTIONS[action]}\n')


@given(parsers.parse("the project policy with a {size:d}-character feedback message"))
def long_message_policy(project, size):
    """A project policy whose feedback is numbered lines of about ``size`` characters, ending with "THE LAST LINE"."""
    body = "\\n".join(f"line {i:05d} " + "x" * 60 for i in range(size // 71))
    project.write_policy(
        f'[[policy]]\nname = "long"\naction = {{ type = "block_with_feedback", feedback_message = "{body}\\nTHE LAST LINE" }}\n'
    )


@given("the project policy file cannot be read")
def unreadable_policy(project):
    """A directory stands where cupcake.toml should be, so the file cannot be read."""
    (project.root / "cupcake.toml").mkdir()  # a directory where the file should be: open() fails, even for root


@when(parsers.parse('the project policy file is changed to block "{pattern}" instead'))
def policy_changed(project, pattern):
    """The policy file's ``"^sudo"`` pattern is replaced with another."""
    path = project.root / "cupcake.toml"
    text = path.read_text().replace('"^sudo"', json.dumps(pattern))
    path.write_text(text)


@given(parsers.parse('the project policy file is changed to say fail_mode "{mode}"'))
@when(parsers.parse('the project policy file is changed to say fail_mode "{mode}"'))
def policy_fail_mode(project, mode):
    """The project's cupcake.toml says fail_mode "open" or "closed" (the setting added when missing)."""
    path = project.root / "cupcake.toml"
    text = path.read_text() if path.exists() else ""
    if 'fail_mode = "' in text:
        text = text.replace('fail_mode = "closed"', f'fail_mode = "{mode}"').replace(
            'fail_mode = "open"', f'fail_mode = "{mode}"'
        )
    else:
        text = f'[settings]\nfail_mode = "{mode}"\n\n' + text
    path.write_text(text)
