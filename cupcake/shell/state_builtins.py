"""What bash's builtins other than the directory's do to the shell (``builtins.HANDLERS`` names each
handler here): variables (``read``, ``declare``, ``printf -v``…), positional parameters (``set --``,
``shift``), options (``set -P``, ``shopt -s nocaseglob``), code they run now or later (``eval``,
``source``, ``trap``, ``mapfile -C``), and the ones that change which program a name runs (``alias``,
``hash -p``, ``enable``), which the reader refuses. Loaded when a line calls one of them."""

from __future__ import annotations

from cupcake.programs.spec import RUNS
from cupcake.shell.model import Opaque
from cupcake.shell.runs import run_script
from cupcake.shell.variables import assign, xtrace
from cupcake.shell.walker import TAINTED, UNKNOWN, UNSET, Ctx, State, merge
from cupcake.shell.words import Word


def _words(reading) -> list:
    return list(reading.operands)


# ## code run now or later ##


def source(w, cmd, reading, st, via):
    operands = list(_words(reading))
    if operands and operands[0].known and operands[0].value == "--":
        operands = operands[1:]
    if not operands:
        return st, st
    args = [a.value if a.known else (TAINTED if a.tainted else UNKNOWN) for a in operands[1:]] or None
    after = run_script(w, cmd, operands[0], st.copy(), via + ("script " + operands[0].value,), args)
    if after is None:
        after = st.copy()
        after.wild = True
    after.args = st.args
    return after, after


def eval_text(w, cmd, reading, st, via):
    args = list(cmd.words[1:])
    if args and args[0].known and args[0].value == "--":
        args = args[1:]
    text = " ".join(x.value for x in args)
    if not all(x.known for x in args):
        cmd.opaque = cmd.opaque + (Opaque("shell script", "sh", text, False),)
    ok, fail = w.walk_text(text, st, via + ("eval",))
    return ok, fail


def trap(w, cmd, reading, st, via):
    for effect in reading.of(RUNS):
        word = effect.word
        if not word.known:
            w.script.unknown(
                "`trap` runs code Cupcake cannot see when the shell exits", "run the cleanup directly", cmd
            )
            continue
        signals = [x.value for x in reading.operands[1:]]
        at = st.copy()
        if any(
            sig not in ("EXIT", "0", "INT", "TERM", "HUP", "QUIT", "SIGINT", "SIGTERM", "SIGHUP") for sig in signals
        ):
            at.cwd = None  # DEBUG, ERR, RETURN run at any command, wherever it runs
        w.traps.append((word.value, at))
    return st, st


def mapfile(w, cmd, reading, st, via):
    after = _taint_names(w, st, list(_words(reading)) or [Word("MAPFILE")])
    callback = reading.get("-C")
    if callback is not None:
        if callback.known:
            sub = st.copy()
            sub.args = None
            w.walk_text(callback.value + " …", sub, via + ("mapfile -C",))
        else:
            w.script.unknown(
                "`mapfile -C` runs a callback Cupcake cannot see", "read the lines, then run the command", cmd
            )
    return after, after


def _taint_names(w, st: State, words) -> State:
    """Variables set from input: their values are data (``read``, ``mapfile``, ``getopts``)."""
    after = st.copy()
    for word in words:
        name = name_of(w, word, st)
        if name:
            after.env[name] = TAINTED
            if name == "HOME":
                after.home = None
    return after


def name_of(w, word, st):
    """A variable name a builtin sets; a subscript there is arithmetic (code)."""
    if not word.known:
        w.script.unknown(f"a builtin sets a variable whose name is not written out ({word.value})", "name the variable")
        return None
    name, bracket, rest = word.value.partition("[")
    if bracket:
        from cupcake.shell.arith import subscript

        subscript(rest.rsplit("]", 1)[0], Ctx(w, st, ()), word.value)
    return name


def read(w, cmd, reading, st, via):
    names = list(_words(reading))
    array = reading.get("-a")
    if array is not None:
        names.append(array)
    after = _taint_names(w, st, names or [Word("REPLY")])
    return after, merge(after, st)


def getopts(w, cmd, reading, st, via):
    operands = _words(reading)
    after = _taint_names(w, st, operands[1:2] + [Word("OPTARG")])
    return after, after


def printf_v(w, cmd, reading, st, via):
    target = reading.get("-v")
    if target is None:
        return st, st
    from cupcake.shell.output import stdout

    after = st.copy()
    name = name_of(w, target, st)
    if name:
        words = [cmd.words[0]] + list(reading.operands)
        printed = stdout(type(cmd)(words)) if reading.operands else ("", True)
        after.env[name] = printed[0] if printed and printed[1] else TAINTED
    return after, after


def declare(w, cmd, reading, st, via):
    after = st.copy()
    if reading.has("-n"):
        w.script.unknown("`declare -n` makes a name refer to another variable", "use the variable itself", cmd)
    compound = reading.has("-a", "-A")
    local = cmd.program == "local" or (
        cmd.program in ("declare", "typeset")
        and not reading.has("-g")
        and any(v.startswith("function ") for v in cmd.via)
    )
    for word in _words(reading):
        text = word.value
        name, eq, value = text.partition("=")
        name = name_of(w, Word(name, known=word.known), st) if word.known or "=" in text else None
        if name is None:
            continue
        if local:
            after.locals = after.locals | {name}
        if reading.has("-i"):
            after.options = after.options | {"int:" + name}
        if not eq:
            if cmd.program != "export" and name not in after.env:
                after.env[name] = ""
            continue
        if compound and value.startswith("(") and word.known:
            w.walk_text(f"{name}={value}", st.copy(), via + (cmd.program,))  # the array's words expand
        elif compound and value.startswith("("):
            w.script.unknown(
                f"`{cmd.program}` evaluates `{text}` as an array, with text Cupcake cannot see",
                "assign the array with NAME=(…)",
                cmd,
            )
        if "int:" + name in after.options:
            Ctx(w, after, via).arith(value if word.known else None, word.tainted, text)
        assign(w, after, name, Word(value, known=word.known, glob=word.glob) if word.known else None, word.tainted)
    return after, after


def unset(w, cmd, reading, st, via):
    after = st.copy()
    for word in _words(reading):
        name = name_of(w, word, st)
        if not name:
            continue
        if reading.has("-f"):
            after.funcs = {k: v for k, v in after.funcs.items() if k != name}
            continue
        after.env[name] = UNSET
        if name == "HOME":
            after.home = None
    return after, after


def set_options(w, cmd, reading, st, via):
    after = st.copy()
    options = set(after.options)
    for opt, value, _i in reading.opts:
        name = opt.name
        flag = {"-P": "physical", "-x": "xtrace", "-f": "noglob", "-k": "keyword"}.get(name.replace("+", "-"))
        if value is not None and value.known:
            flag = {"physical": "physical", "xtrace": "xtrace", "noglob": "noglob", "keyword": "keyword"}.get(
                value.value
            )
        elif value is not None:
            w.script.unknown("`set -o` with an option Cupcake cannot see", "name the option", cmd)
        if flag is None:
            continue
        if name.startswith("+"):
            options.discard(flag)
        else:
            options.add(flag)
    after.options = frozenset(options)
    if "keyword" in options:
        w.script.unknown("`set -k` makes NAME=value anywhere in a command an assignment", "leave `set -k` out", cmd)
    if any(x.known and x.value == "--" for x in reading.words[1:]) or reading.operands:
        after.args = [a.value if a.known else (TAINTED if a.tainted else UNKNOWN) for a in reading.operands]
    xtrace(w, after)
    return after, after


_SHOPT = {
    "nocaseglob": "nocaseglob",
    "nocasematch": "nocaseglob",
    "nullglob": "nullglob",
    "failglob": "nullglob",
}
_SHOPT_REFUSED = {
    "expand_aliases": "makes aliases change which program a name runs",
    "extdebug": "changes what functions and the DEBUG trap do",
    "lastpipe": "runs the last command of a pipeline in this shell",
}


def shopt(w, cmd, reading, st, via):
    if not reading.has("-s"):
        return st, st
    after = st.copy()
    for word in _words(reading):
        if not word.known:
            w.script.unknown("`shopt -s` with an option Cupcake cannot see", "name the option", cmd)
            continue
        if word.value in _SHOPT_REFUSED:
            w.script.unknown(
                f"`shopt -s {word.value}` {_SHOPT_REFUSED[word.value]}", f"leave `shopt -s {word.value}` out", cmd
            )
        flag = _SHOPT.get(word.value)
        if flag is not None:
            after.options = after.options | {flag}
    for x in cmd.writes:
        x.fold = "nocaseglob" in after.options
    return after, after


def alias(w, cmd, reading, st, via):
    if any("=" in x.value or not x.known for x in _words(reading)):
        w.script.unknown("`alias` changes which program a name runs", "write the command itself", cmd)
    return st, st


def hash_p(w, cmd, reading, st, via):
    if reading.has("-p"):
        w.script.unknown("`hash -p` makes a name run another program", "run the program by its own name or path", cmd)
    return st, st


def enable(w, cmd, reading, st, via):
    if _words(reading) or reading.has("-f", "-d", "-n"):
        w.script.unknown("`enable` changes which builtins a name runs", "leave `enable` out", cmd)
    return st, st


def fc(w, cmd, reading, st, via):
    if not reading.has("-l"):
        w.script.unknown(
            "`fc` runs commands from the history, which Cupcake cannot see", "write the command again", cmd
        )
    return st, st


def let(w, cmd, reading, st, via):
    for word in cmd.words[1:]:
        Ctx(w, st, via).arith(word.value if word.known else None, word.tainted or not word.known, word.raw)
    after = st.copy()
    for word in cmd.words[1:]:
        name = word.value.split("=", 1)[0].strip() if word.known else ""
        if name.isidentifier():
            after.env[name] = UNKNOWN
    return after, merge(after, st)


def shift(w, cmd, reading, st, via):
    after = st.copy()
    if after.args is not None:
        ops = reading.operands
        count = int(ops[0].value) if ops and ops[0].known and ops[0].value.isdigit() else None
        after.args = None if count is None else after.args[count:]
    return after, after
