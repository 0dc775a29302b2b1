"""Where a ``shell = true`` script may not use a placeholder: places where the shell reads a value as code.

The value reaches the script only as a positional parameter (``"$1"``), which the shell never parses as
code, with a few exceptions that this module refuses when the policies load:

- arithmetic: ``$(( … ))``, ``(( … ))``, ``$[ … ]``, ``[[ … ]]`` (its ``-eq``/``-lt``… operands), an array
  subscript ``a[…]`` and any ``${ … }`` expansion (offsets, lengths, indirection). bash evaluates the
  *contents* of a variable in arithmetic, and evaluating ``a[$(touch pwned)]`` runs the command;
- commands that run their arguments as code: ``eval``, ``source``/``.``, ``trap``, ``let``, ``declare -i``
  (and ``typeset``/``local`` with ``-i``), ``sh -c``/``bash -c`` and the like;
- the command position: a value as the program to run.

Cupcake cannot see what the script does with ``$1`` afterwards: a script that copies it into a variable it
later uses in arithmetic (``x=$1; echo $((x))``) is its author's responsibility (check it is a number first:
``case $1 in *[!0-9]*) exit 1;; esac``).
"""

from __future__ import annotations

from cupcake.run_command.template import PLACEHOLDER

_ARITH = "arithmetic"
_CODE_COMMANDS = {"eval", "source", ".", "trap", "let", "alias"}
_DECLARE = {"declare", "typeset", "local", "integer"}
_SHELLS = {"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "csh", "tcsh"}
_RESERVED = {"if", "then", "else", "elif", "do", "while", "until", "!", "time", "{", "exec", "command", "builtin"}
_SEPARATORS = ";&|()\n"
_IDENT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"


def shell_problems(command: str) -> list[str]:
    """``command: …`` messages, one per placeholder standing where the shell would read it as code."""
    problems: list[str] = []
    closers: list[tuple] = []  # (closing text, kind, quote outside, words outside) of the constructs we are in
    quote = ""
    words: list[str] = []  # the current simple command's words so far (template text)
    word: list[str] = []
    i, n = 0, len(command)

    def end_word() -> None:
        if word:
            words.append("".join(word))
            word.clear()

    def refuse(name: str, why: str) -> None:
        text = f"command: {{{{{name}}}}} stands {why}; the shell would read the agent's value as code there"
        if text not in problems:
            problems.append(text)

    while i < n:
        c = command[i]
        m = PLACEHOLDER.match(command, i) if c == "{" else None
        if m:
            name = m.group(1)
            if any(entry[1] == _ARITH for entry in closers):
                refuse(name, "inside an arithmetic expression, a [[ ]] test, an array subscript or a ${…} expansion")
            elif not closers or closers[-1][1] == "command":
                first = _program(words)
                if first is None and not word:
                    refuse(name, "where the program to run is named")
                elif first is not None:
                    base = first.rsplit("/", 1)[-1]
                    if base in _CODE_COMMANDS:
                        refuse(name, f"in an argument of `{first}`")
                    elif base in _DECLARE and any(w.startswith("-") and "i" in w for w in words[1:]):
                        refuse(name, f"in an argument of `{first} -i`")
                    elif base in _SHELLS and any(w.startswith("-") and "c" in w for w in words[1:]):
                        refuse(name, f"in an argument of `{first} -c`")
            word.append(m.group(0))
            i = m.end()
            continue
        if quote == "'":
            if c == "'":
                quote = ""
            word.append(c)
            i += 1
            continue
        if c == "\\":
            word.append(command[i : i + 2])
            i += 2
            continue
        if closers and quote == "" and command.startswith(closers[-1][0], i):
            text, kind, quote, outside = closers.pop()
            if kind == "command":
                words[:], word[:] = outside
            word.append(text)
            i += len(text)
            continue
        opened = _opening(command, i, quote, word)
        if opened is not None:
            text, closer, kind = opened
            closers.append((closer, kind, quote, (words[:], word[:])))
            quote = ""
            word.append(text)
            if kind == "command":
                words.clear()
                word.clear()
            i += len(text)
            continue
        if quote == '"':
            if c == '"':
                quote = ""
            word.append(c)
        elif c in "'\"":
            quote = c
            word.append(c)
        elif c in " \t":
            end_word()
        elif c in _SEPARATORS:
            end_word()
            if not closers or closers[-1][1] == "command":
                words.clear()
        elif c == "#" and not word:
            while i < n and command[i] != "\n":
                i += 1
            continue
        else:
            word.append(c)
        i += 1
    return problems


def _opening(command: str, i: int, quote: str, word: list[str]) -> tuple[str, str, str] | None:
    """The construct opening at ``i``: (its text, its closing text, its kind), or None."""
    if command.startswith("$((", i):
        return "$((", "))", _ARITH
    if command.startswith("$[", i):
        return "$[", "]", _ARITH
    if command.startswith("${", i):
        return "${", "}", _ARITH
    if command.startswith("$(", i):
        return "$(", ")", "command"
    if quote:
        return None
    if command.startswith("((", i):
        return "((", "))", _ARITH
    if command.startswith("[[", i) and not word:
        return "[[", "]]", _ARITH
    if command[i] == "[" and word and word[-1] and word[-1][-1] in _IDENT:
        return "[", "]", _ARITH  # a subscript: name[…]
    return None


def _program(words: list[str]) -> str | None:
    """The program of a simple command from its words so far (skipping assignments and reserved words)."""
    for w in words:
        if w in _RESERVED or ("=" in w and w.split("=", 1)[0].isidentifier()):
            continue
        return w.strip("'\"")
    return None
