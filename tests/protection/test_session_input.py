"""Shell-borne shapes other than a Bash call (issue 27, item 7), through the public functions the
adapters call: input typed into a running session (Codex's ``write_stdin``, Copilot's
``write_bash``) is read like a command once it is whole lines, and refused when the session would
join, edit or expand it; a script in another language sent as a shell call (a PowerShell shell tool)
is judged as that language's inline code."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cupcake.protection import session_input
from cupcake.protection.protected_set import protected_defaults


@pytest.fixture
def setting(project):
    project.write_policy("")
    env = {"HOME": str(project.home)}
    root = str(project.root)
    ctx = SimpleNamespace(env=env, root=root, agent=None, patterns=None, policies={}, home=str(project.home))
    return root, env, protected_defaults(root, env), ctx


def _session(setting, text):
    root, env, protected, ctx = setting
    return session_input.session_violation(text, root, root, env, protected, ctx)


ALLOWED = ["ls -la\n", "git status\r\n", "echo hi\nls\n", "y\n", "cat <<'EOF' > notes.txt\nhello\nEOF\n", ""]
REFUSED = [
    ("rm cupcake.t", "does not end its line"),  # + "oml\n" next: each part alone looks harmless
    ("rm cupcake.toml\n", "would change cupcake.toml"),
    ("echo x > cupcake.toml\r\n", "would change cupcake.toml"),
    ("rm cupcake.t\toml\n", "control keys"),  # completion
    ("rm cupcake.tomlx\x7f\n", "control keys"),  # erase
    ("\x1b[A\n", "control keys"),  # history recall
    ("echo rm cupcake.toml\n!!:1-2\n", "expands `!`"),
    ("^echo^rm\n", "expands `!`"),
    ('git commit -m "done!"\n', "expands `!`"),
    ("PS1='$(rm cupcake.toml)'\n", "`PS1`"),
    ("PROMPT_COMMAND='rm cupcake.toml'\n", "`PS"),  # (PS… is found first in PROMPT_COMMAND? no: a prompt word)
    ("bind -x '\"\\C-m\": rm cupcake.toml'\n", "`bind`"),
    ("alias ls=rm\nls cupcake.toml\n", "`alias` changes which program a name runs"),
    ("import os; os.remove('cupcake.toml')\n", "cupcake.toml"),  # a REPL's input, read as shell
    ("import os; os.remove('x')\n", "syntax error"),
]


@pytest.mark.parametrize("text", ALLOWED)
def test_whole_lines_of_plain_commands_pass(setting, text):
    assert _session(setting, text) is None


@pytest.mark.parametrize("text, said", REFUSED, ids=[repr(t)[:40] for t, _s in REFUSED])
def test_input_the_session_would_join_edit_or_expand_is_refused(setting, text, said):
    found = _session(setting, text)
    assert found is not None and found.startswith("Cupcake self-protection: "), found
    assert said in found or (said == "`PS" and "PROMPT_COMMAND" in found), found


def test_a_refusal_says_how_to_send_it_plainly(setting):
    found = _session(setting, "rm cupcake.t")
    assert "Write it plainly so Cupcake can check it (send whole lines, each ending with a newline)" in found


@pytest.mark.parametrize(
    "script, blocked",
    [
        ("Remove-Item ('cup' + 'cake.toml')", True),
        ('$a = "cu"; Remove-Item "${a}pcake.toml"', True),
        ('$n = "cupc"; $n += "ake.toml"; del $n', True),
        ("Get-ChildItem *.toml | Remove-Item", True),
        ("Get-Date", False),
        ("Get-Content README.md", False),
    ],
)
def test_a_powershell_shell_call_is_judged_as_powershell(setting, script, blocked):
    root, env, protected, ctx = setting
    found = session_input.code_violation(script, "powershell", root, root, env, protected, ctx)
    assert (found is not None) == blocked, found
    if blocked:
        assert found.startswith("Cupcake self-protection: this powershell command could change Cupcake's own files")
