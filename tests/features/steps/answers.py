"""What Cupcake answered the agent: denials, approvals, questions, context, notes, exit codes."""

from __future__ import annotations

from pytest_bdd import parsers, then

from tests.features.steps.helpers import _answer


@then("Cupcake prints nothing")
def prints_nothing(run):
    """Cupcake exits 0 and prints nothing at all, on stdout or stderr."""
    answer = _answer(run)
    assert answer.stdout == b"" and answer.stderr == b"", answer


@then(parsers.parse("Cupcake answers {expected}"))
def answers_exactly(run, expected):
    """Exact stdout, and nothing on stderr, exit code 0."""
    answer = _answer(run)
    assert answer.stderr == b"", answer
    if expected == "nothing":
        assert answer.stdout == b"", answer
    else:
        # Gherkin turns a table cell's "\n" into a newline; the JSON printed never holds a raw one.
        assert answer.stdout == expected.replace("\n", "\\n").encode() + b"\n", answer


@then(parsers.parse("the tool call is denied with:"))
def denied_with(run, docstring):
    """The tool call is denied, and the reason given to the agent is exactly this text."""
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "deny", answer
    assert answer.specific["permissionDecisionReason"] == docstring


@then(parsers.re(r"the tool call is (?P<outcome>denied|let through)"))
def denied_or_not(run, outcome):
    """The tool call is denied, or let through with nothing printed."""
    answer = _answer(run)
    if outcome == "denied":
        assert answer.specific.get("permissionDecision") == "deny", answer
    else:
        assert answer.stdout == b"", answer


@then(parsers.parse('the tool call is allowed with the reason "{reason}"'))
def allowed_with_reason(run, reason):
    """The tool call is approved (no question to the person), with exactly this reason."""
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "allow", answer
    assert answer.specific.get("permissionDecisionReason") == reason, answer


@then(parsers.parse('the person is asked with the reason "{reason}"'))
def asked(run, reason):
    """The person is asked to decide, with exactly this reason."""
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "ask", answer
    assert answer.specific.get("permissionDecisionReason") == reason, answer


@then(parsers.parse('the tool call goes ahead with the warning "{text}"'))
def goes_ahead_warned(run, text):
    """No decision is taken (the call goes ahead), and both the model (context) and the person (a
    note) are told the warning, which holds this text."""
    answer = _answer(run)
    assert "permissionDecision" not in answer.specific, answer
    assert text in answer.specific.get("additionalContext", ""), answer
    assert text in (answer.json or {}).get("systemMessage", ""), answer


@then(parsers.parse("the model is given the context:"))
def given_context(run, docstring):
    """The model is given exactly this text as additional context."""
    assert _answer(run).specific.get("additionalContext") == docstring, run.answer


@then("the model is given no context")
def given_no_context(run):
    """The answer carries no additional context for the model."""
    assert "additionalContext" not in _answer(run).specific, run.answer


@then(parsers.parse('nothing shown contains "{text}"'))
def nothing_contains(run, text):
    """Neither the answer nor stderr contains the text anywhere."""
    assert text.encode() not in run.answer.stdout + run.answer.stderr, run.answer


@then(parsers.parse("the model is shown at most {limit:d} characters"))
def shown_at_most(run, limit):
    """What the model is shown is no longer than the limit."""
    assert len(_answer(run).model_text()) <= limit


@then(parsers.parse('the model is shown a note that "{text}"'))
def shown_note(run, text):
    """What the model is shown contains the note."""
    assert text in _answer(run).model_text()


@then("the model is shown the last line of the message")
def shown_last_line(run):
    """What the model is shown ends with the message's last line (nothing of the end was cut)."""
    assert _answer(run).model_text().endswith("\nTHE LAST LINE")


@then(parsers.parse('the model is shown the last line of the message, then "{text}"'))
def shown_last_line_then(run, text):
    """What the model is shown ends with the message's last line, then the text after a blank line."""
    assert _answer(run).model_text().endswith(f"\nTHE LAST LINE\n\n{text}"), run.answer


@then(parsers.re(r'the answer is (?P<kind>only a note to the user|a denial) saying "(?P<text>.*)"'))
def failure_answer(run, kind, text):
    """A policy that could not be applied: with fail_mode "closed" a denial saying why, with "open" only a note to the user."""
    answer = _answer(run)
    text = text.replace('\\"', '"')
    if kind == "a denial":
        assert answer.specific.get("permissionDecision") == "deny", answer
        reason = answer.specific["permissionDecisionReason"]
        assert reason.startswith("Cupcake: ") and 'so this is blocked (fail_mode "closed")' in reason, reason
        assert text in reason, reason
    else:
        assert set(answer.json) == {"systemMessage"}, answer
        note = answer.json["systemMessage"]
        assert note.startswith("Cupcake: "), note
        assert text in note, note


@then("no stack trace is shown")
def no_stack_trace(run):
    """No Python traceback appears on stdout or stderr."""
    assert b"Traceback" not in run.answer.stdout + run.answer.stderr


@then(parsers.parse("the answer came within {seconds:d} seconds"))
def answered_within(run, seconds):
    """The last answer came within the time limit, timed from the test's side."""
    assert run.seconds < seconds, run.seconds


@then(parsers.parse('the user is told "{text}"'))
def user_told(run, text):
    """``\\"`` and ``\\n`` in the quoted text stand for a quote and a newline."""
    text = text.replace('\\"', '"').replace("\\n", "\n")
    assert text in (_answer(run).json or {}).get("systemMessage", ""), run.answer


@then("the user is told nothing")
def user_told_nothing(run):
    """The answer carries no note for the user."""
    assert "systemMessage" not in (_answer(run).json or {}), run.answer


@then(parsers.parse("the exit code is {code:d}"))
def exit_code(run, code):
    """The last command or hook run ended with this exit code."""
    assert run.answer.code == code, run.answer


@then(parsers.parse("the model is shown:"))
def model_shown(run, docstring):
    """What the model is shown is exactly this text, whole."""
    assert _answer(run).model_text() == docstring


@then("the tool call is not denied")
def not_denied(run):
    """The tool call is not denied (it may be let through, approved or asked about)."""
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") != "deny", answer


@then(parsers.parse('the tool call is denied by the policy "{name}"'))
def denied_by_policy(project, run, name):
    """Denied, with the reason of the named policy: a built-in rule's reason ends with its id in
    brackets; a project policy's holds its feedback message (read from cupcake.toml)."""
    import tomli

    from cupcake import packs

    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "deny", answer
    reason = answer.specific["permissionDecisionReason"]
    if name in packs.all_rules():
        assert reason.endswith(f"[{name}]"), reason
        return
    table = tomli.loads((project.root / "cupcake.toml").read_text())
    policy = next(p for p in table["policy"] if p["name"] == name)
    assert policy["action"]["feedback_message"] in reason, reason


@then(parsers.parse('the denial says "{text}"'))
def denial_says(run, text):
    """The reason the agent is given for the denial contains ``text``."""
    answer = _answer(run)
    assert answer.specific.get("permissionDecision") == "deny", answer
    assert text in answer.specific["permissionDecisionReason"], answer
