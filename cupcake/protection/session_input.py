"""Shell-borne shapes other than a Bash call, for the adapters: input typed into a running session
(Codex's ``write_stdin``, Copilot's ``write_bash``) is read like a command once it is whole lines, and
refused when the session would join, edit or expand it; a script in another language sent as a shell
call (a PowerShell shell tool) is judged as that language's inline code (``code_names``)."""

from __future__ import annotations

from cupcake.protection.bash import Check, _plain, _text, violation


def session_violation(text, cwd: str, root: str, env, protected: dict, ctx):
    """The block text for input typed into a running session (Codex's ``write_stdin``, Copilot's
    ``write_bash``), else None. Read like a command once it is whole lines: an interactive shell
    keeps a line that does not end and joins it with what comes next (``rm cupcake.t`` + ``oml``),
    edits what it is sent (control keys, completion), expands history (``!!``, ``^a^b``) and runs its
    prompt variables, so such input is refused with how to send it plainly. What runs in the session
    need not be a shell: other input is read as shell too, and what Cupcake cannot read is refused."""
    if not isinstance(text, str) or not text:
        return None
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    found = _session_unreadable(lines)
    if found is not None:
        return _plain(found[0], found[1])
    return violation(lines, cwd, root, env, protected, ctx)


_PROMPT_CODE = ("PS0", "PS1", "PS2", "PS3", "PROMPT_COMMAND", "bind")


def _session_unreadable(text: str):
    if not text.endswith("\n"):
        return (
            "the input does not end its line, so the session joins it with what is sent next",
            "send whole lines, each ending with a newline",
        )
    if any(ch < " " and ch != "\n" or ch == "\x7f" for ch in text):
        return (
            "the input holds control keys, which edit or complete the line in the session",
            "send the command as plain text, without control keys",
        )
    for line in text.split("\n"):
        if line.lstrip().startswith("^") or any(
            ch == "!" and line[k + 1 : k + 2] not in ("", " ", "\n", "=", "(") for k, ch in enumerate(line)
        ):
            return (
                "an interactive shell expands `!` and `^` from its history",
                "write the command out in full, without `!`",
            )
    word = next((w for w in _PROMPT_CODE if w in text), None)
    if word is not None:
        return (f"`{word}` makes an interactive shell run code at its prompt or on a key", f"leave `{word}` out")
    return None


def code_violation(text, language: str, cwd: str, root: str, env, protected: dict, ctx):
    """The block text for a script in another language sent as a shell call (an agent whose shell
    tool runs PowerShell: ``language="powershell"``), else None: as inline code handed to that
    language's interpreter is judged (it names a protected file, or can change files and builds a
    name at run time)."""
    if not isinstance(text, str) or not text:
        return None
    from cupcake.protection.code_names import names_in_code, protected_names

    hint = names_in_code(text, protected_names(Check(None, protected, ctx, root)), language)
    if hint:
        return _text(
            f"this {language} command could change Cupcake's own files ({hint}); Cupcake does not run code "
            "to find out, so it is blocked"
        )
    return None
