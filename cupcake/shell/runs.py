"""What a command runs beyond its program: a function's body, a shell's ``-c`` text, script or standard
input, a shell script a program runs (``find -exec sh -c``, ``xargs sh``, ``make -f``), inline code
(``python -c``), code on standard input, and the settings that make a program run another one. Each
is read like the line itself, or said to be unknown. Reached through ``cupcake.shell.Parts``, so a
line that runs no such code does not load it."""

from __future__ import annotations

from cupcake.programs.spec import CODE, CONFIG, RUNS, SCRIPT, STDIN_CODE
from cupcake.programs.spec import UNKNOWN as UNKNOWN_EFFECT
from cupcake.shell.model import Opaque
from cupcake.shell.paths import base
from cupcake.shell.walker import TAINTED, UNKNOWN, merge


def call(w, cmd, st, via, name, env):
    """A function: its body runs in this shell with the call's words as $1, $2…"""
    body = st.funcs.get(name)
    if body is None:
        w.script.unknown(f"`{name}` is defined differently on two paths of this command", "define it once", cmd)
        return st, st, cmd
    if w.depth >= 32:
        w.budget.stop("nesting too deep")
        return st, st, cmd
    inner = st.copy()
    if env:
        from cupcake.shell.variables import assign

        for var, value, tainted in env:
            assign(w, inner, var, value, tainted)
    inner.args = [a.value if a.known else (TAINTED if a.tainted else UNKNOWN) for a in cmd.words[1:]]
    if cmd.extra_args:
        inner.args = None
    inner.locals = frozenset()
    w.depth += 1
    try:
        ok, fail, _last = w.walk_node(body, inner, via + (f"function {name}",), None)
    finally:
        w.depth -= 1
    return _returned(ok, st), _returned(fail, st), cmd


def _returned(after, before):
    """The state after a function returns: its local variables gone, the caller's parameters back."""
    out = after.copy()
    out.args = before.args
    for name in after.locals:
        if name in before.env:
            out.env[name] = before.env[name]
        else:
            out.env.pop(name, None)
    out.locals = before.locals
    return out


# ## code a program runs ##


def _runs(w, cmd, effect, st, via) -> None:
    """A command line the program runs through a shell: read it like this one."""
    word = effect.word
    sub = st.copy()
    sub.cwd = base(cmd, effect) if effect.base else cmd.cwd
    w.walk_text(word.value, sub, via + (effect.what,))
    if not word.known:
        cmd.opaque = cmd.opaque + (Opaque("shell script", "sh", word.value, False),)


def _script(w, cmd, effect, st, via) -> None:
    language = effect.language or "sh"
    if language == "sh":
        run_script(w, cmd, effect.word, st.copy(), via + ("script " + effect.word.value,), None)
        return
    w.parts.other_script(w, cmd, effect, st, via)


def _code(w, cmd, effect, st, via) -> None:
    word = effect.word
    cmd.opaque = cmd.opaque + (Opaque("inline code", effect.language or "code", word.value, word.known),)


def stdin_code(w, cmd, effect, st, via) -> None:
    if effect.language == "sh":  # a shell script on standard input, run now or later (at, su)
        _stdin_script(w, cmd, st, via)
        return
    if effect.language in ("cron",):
        w.parts.later(w, cmd, effect, st, via)
        return
    fed = stdin_of(cmd)
    if fed is not None:
        cmd.opaque = cmd.opaque + (Opaque("stdin code", effect.language or "code", fed[0] or None, fed[1]),)


def _config(w, cmd, effect, st, via) -> None:
    w.script.unknown(
        f"`{effect.what} {effect.word.value}` sets `{effect.word.value.split('=', 1)[0]}`, which makes "
        f"`{cmd.program}` run a program Cupcake does not see",
        "leave that setting out",
        cmd,
    )


def _unknown_effect(w, cmd, effect, st, via) -> None:
    value = effect.word.value if effect.word is not None else ""
    w.script.unknown(f"`{effect.what} {value}` does what Cupcake cannot tell", "leave that option out", cmd)


EFFECTS = {
    RUNS: _runs,
    SCRIPT: _script,
    CODE: _code,
    STDIN_CODE: stdin_code,
    CONFIG: _config,
    UNKNOWN_EFFECT: _unknown_effect,
}


def code_effect(w, cmd, effect, st, via) -> None:
    """One effect of a program that runs code (``commands`` hands these here)."""
    EFFECTS[effect.tag](w, cmd, effect, st, via)


def stdin_of(cmd):
    """The text fed to a command's stdin: (text, known), or None if there is none we can see;
    ("", False) when it comes from somewhere unknown."""
    for r in reversed(cmd.redirects):
        if r.feeds_stdin:
            return r.body, r.body_known
        if r.op in ("<", "<>") and r.fd in (None, 0):
            return None
    if cmd.stdin_text is not None:
        return cmd.stdin_text
    if cmd.stdin_from is not None:
        return ("", False)
    return None


# ## shells and the scripts they run ##


def shell(w, cmd, reading, st, via) -> None:
    if "BASH_ENV" in st.env or "ENV" in st.env:
        w.script.unknown(
            "a shell started with BASH_ENV or ENV set first runs a file Cupcake does not read", "unset it", cmd
        )
    if reading.has("-x") and "ps4" in st.options:
        from cupcake.shell.variables import xtrace  # PS4 was set: variables is loaded

        sub = st.copy()
        sub.options = sub.options | {"xtrace"}
        xtrace(w, sub)
    for effect in reading.effects:
        if effect.tag == RUNS and effect.what.endswith("-c"):
            sub = st.copy()
            sub.cwd = cmd.cwd
            sub.args = _args(reading, effect.word)
            w.walk_text(effect.word.value, sub, via + (cmd.program + " -c",))
            if not effect.word.known:
                cmd.opaque = cmd.opaque + (Opaque("shell script", "sh", effect.word.value, False),)
        elif effect.tag == SCRIPT:
            run_script(
                w, cmd, effect.word, st.copy(), via + ("script " + effect.word.value,), _args(reading, effect.word)
            )
        elif effect.tag == STDIN_CODE:
            _stdin_script(w, cmd, st, via)
        else:
            w.parts.effect(w, cmd, effect, st, via)


def _args(reading, script_word):
    """The positional parameters a shell's script sees: the words after the script (``$0`` first
    for ``-c``)."""
    ops = reading.operands
    k = next((i for i, op in enumerate(ops) if op is script_word), -1)
    rest = ops[k + 1 :] if k >= 0 else []
    if reading.has("-c") and rest:
        rest = rest[1:]  # $0
    return [a.value if a.known else (TAINTED if a.tainted else UNKNOWN) for a in rest]


def _stdin_script(w, cmd, st, via) -> None:
    """A shell reading its script on standard input: a pipe or here-document the reader knows is
    walked; one it cannot see is unknown. Input the command inherits (the agent's own, as in an
    interactive session) is checked as the agent sends it, not here."""
    fed = stdin_of(cmd)
    if fed is None:
        target = next((r.target for r in cmd.redirects if r.op in ("<", "<>") and r.fd in (None, 0)), None)
        if target is not None:
            run_script(w, cmd, target, st.copy(), via + (cmd.program + " <",), None)
        return
    text, known = fed
    if text:
        sub = st.copy()
        sub.cwd = cmd.cwd
        w.walk_text(text, sub, via + (cmd.program + " stdin",))
    if not known:
        cmd.opaque = cmd.opaque + (Opaque("stdin script", "sh", text or None, False),)


def run_script(w, cmd, word, st, via, args):
    """Walk the shell script file ``word`` names (read now, or as this command wrote it): the
    state after it, or None when it could not be read (said as unknown, unless bash fails too)."""
    text = w.parts.script_text(w, cmd, word)
    if text is None:
        return None
    sub = st
    sub.cwd = cmd.cwd
    if args is not None:
        sub.args = args
    ok, fail = w.walk_text(text, sub, via)
    return merge(ok, fail)
