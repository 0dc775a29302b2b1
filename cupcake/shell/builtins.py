"""What bash's builtins do to the shell: the directory (``cd``, ``pushd``, ``popd``), variables
(``read``, ``declare``, ``printf -v``…), positional parameters (``set --``, ``shift``), options
(``set -P``, ``shopt -s nocaseglob``), code they run now or later (``eval``, ``source``,
``trap``, ``mapfile -C``), and the ones that change which program a name runs (``alias``,
``hash -p``, ``enable``), which the reader refuses. One handler per builtin, in ``HANDLERS``."""

from __future__ import annotations

import os

from cupcake.programs.spec import RUNS
from cupcake.shell.commands import assign, effects, run_script
from cupcake.shell.limits import LINK_CHECK_COST
from cupcake.shell.model import Opaque, normpath
from cupcake.shell.walker import TAINTED, UNKNOWN, UNSET, Ctx, State, merge
from cupcake.shell.words import Word


def run_builtin(w, cmd, reading, st, via):
    handler = HANDLERS.get(cmd.program)
    if handler is None:
        effects(w, cmd, reading, st, via)
        return st, st, cmd
    ok, fail = handler(w, cmd, reading, st, via)
    return ok, fail, cmd


def _words(reading) -> list:
    return list(reading.operands)


# ## the directory ##


def _cd(w, cmd, reading, st, via):
    operands = _words(reading)
    ok = st.copy()
    physical = reading.has("-P") or ("physical" in st.options and not reading.has("-L"))
    if not operands:
        target = cmd.home
    else:
        word = operands[0]
        if word.known and word.value == "-":
            target = ok.oldpwd if isinstance(ok.oldpwd, str) else None
        else:
            target = _cdpath(w, word, st)
            if physical and target is not None and word.exact:
                raw = word.value if word.value.startswith("/") else (st.cwd or "") + "/" + word.value
                if _through_made(raw, w) or st.cwd is None and not word.value.startswith("/"):
                    target = None  # a link this command makes is on the way: where -P ends is not known
                else:
                    target = _physical(raw)
    return _moved(w, ok, st, target, physical)


def _physical(raw: str):
    """Where ``cd -P`` lands: the path walked with links followed (``link/..`` is the target's parent)."""
    try:
        return os.path.realpath(raw)
    except (OSError, ValueError):
        return None


def _through_made(raw: str, w) -> bool:
    """Whether the kernel, walking ``raw`` component by component, passes a link this command made
    (so it may: also when the parse's work budget cannot pay for the comparisons, which stops it)."""
    made = w.made
    if made and not w.budget.spend(LINK_CHECK_COST * len(made) * (raw.count("/") + 1)):
        return True
    current = ""
    for part in raw.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            current = current.rsplit("/", 1)[0]
            continue
        current += "/" + part
        if any(write.could_be(current) for write, itself, _to in made if itself):
            return True
    return False


def _cdpath(w, word, st):
    """``cd NAME``: each CDPATH entry first (a name not starting with ``/``, ``.`` or ``..``)."""
    target = _resolve(word, st.cwd)
    if not word.exact or word.value.startswith(("/", "./", "../")) or word.value in (".", ".."):
        return target
    cdpath = st.env.get("CDPATH", w.base_env.get("CDPATH"))
    if cdpath is None or cdpath == "":
        return target
    if not isinstance(cdpath, str):
        return None  # a CDPATH Cupcake cannot see: any directory
    found = []
    for entry in cdpath.split(":"):
        base = entry or "."
        candidate = _resolve(Word(base.rstrip("/") + "/" + word.value), st.cwd)
        if candidate is not None and (not w.check_dirs or _isdir(candidate)):
            found.append(candidate)
    if not w.check_dirs:
        return target if not [c for c in found if c != target] else None
    return found[0] if found else target


def _moved(w, ok: State, st: State, target, physical: bool):
    if target is not None and w.made and not w.budget.spend(LINK_CHECK_COST * len(w.made) * (target.count("/") + 1)):
        target = None  # the budget is spent (the parse stops): where this lands is not known
    if target is not None and any(write.could_be(target) or _under(write, target) for write, _i, _to in w.made):
        target = None  # a link this command makes may be on the way
    ok.oldpwd = st.cwd
    ok.cwd = target
    ok.env = {k: v for k, v in ok.env.items() if k not in ("PWD", "OLDPWD")}
    if target is not None and w.check_dirs and _isdir(target):
        return ok, ok
    if target is None:
        return ok, merge(ok, st)
    return ok, st


def _under(write, path: str) -> bool:
    k = path.find("/", 1)
    while k > 0:
        if write.could_be(path[:k]):
            return True
        k = path.find("/", k + 1)
    return False


def _pushd(w, cmd, reading, st, via):
    operands = _words(reading)
    rotation = [x for x in reading.words[1:] if x.known and x.value[:1] in "+-" and x.value[1:].isdigit()]
    ok = st.copy()
    if rotation:
        ok.cwd, ok.stack = None, None
        return ok, ok
    if not operands:  # swap the top two
        if ok.stack:
            target = ok.stack[0]
            ok.stack[0] = ok.cwd
            ok.oldpwd, ok.cwd = ok.cwd, target
            return ok, ok
        ok.cwd, ok.stack = None, None
        return ok, ok
    target = _resolve(operands[0], st.cwd)
    if reading.has("-n"):  # onto the stack only: the directory stays
        if ok.stack is not None:
            ok.stack.insert(0, target)
        return ok, ok
    if ok.stack is not None:
        ok.stack.insert(0, st.cwd)
    return _moved(w, ok, st, target, "physical" in st.options)


def _popd(w, cmd, reading, st, via):
    ok = st.copy()
    numbered = [x for x in reading.words[1:] if x.known and x.value[:1] in "+-" and x.value[1:].isdigit()]
    if numbered or reading.has("-n"):
        ok.stack = None if numbered or ok.stack is None else ok.stack[1:]
        return ok, ok
    if ok.stack is None:
        ok.cwd = None
        return ok, ok
    if not ok.stack:
        return st, st  # an empty stack: popd fails, nothing moves
    target = ok.stack.pop(0)
    ok.oldpwd, ok.cwd = ok.cwd, target
    return ok, ok


def _dirs(w, cmd, reading, st, via):
    if reading.has("-c"):
        after = st.copy()
        after.stack = []
        return after, after
    return st, st


def _resolve(word, cwd):
    if not word.exact or not word.value:
        return None
    if word.value.startswith("/"):
        return normpath(word.value)
    return None if cwd is None else normpath(cwd.rstrip("/") + "/" + word.value)


def _isdir(path: str) -> bool:
    try:
        return os.path.isdir(path) and os.access(path, os.X_OK)  # a cd into it can succeed
    except (OSError, ValueError):
        return False


# ## code run now or later ##


def _source(w, cmd, reading, st, via):
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


def _eval(w, cmd, reading, st, via):
    args = list(cmd.words[1:])
    if args and args[0].known and args[0].value == "--":
        args = args[1:]
    text = " ".join(x.value for x in args)
    if not all(x.known for x in args):
        cmd.opaque = cmd.opaque + (Opaque("shell script", "sh", text, False),)
    ok, fail = w.walk_text(text, st, via + ("eval",))
    return ok, fail


def _trap(w, cmd, reading, st, via):
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


def _mapfile(w, cmd, reading, st, via):
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
        name = _name(w, word, st)
        if name:
            after.env[name] = TAINTED
            if name == "HOME":
                after.home = None
    return after


def _name(w, word, st):
    """A variable name a builtin sets; a subscript there is arithmetic (code)."""
    if not word.known:
        w.script.unknown(f"a builtin sets a variable whose name is not written out ({word.value})", "name the variable")
        return None
    name, bracket, rest = word.value.partition("[")
    if bracket:
        from cupcake.shell.arith import subscript

        subscript(rest.rsplit("]", 1)[0], Ctx(w, st, ()), word.value)
    return name


def _read(w, cmd, reading, st, via):
    names = list(_words(reading))
    array = reading.get("-a")
    if array is not None:
        names.append(array)
    after = _taint_names(w, st, names or [Word("REPLY")])
    return after, merge(after, st)


def _getopts(w, cmd, reading, st, via):
    operands = _words(reading)
    after = _taint_names(w, st, operands[1:2] + [Word("OPTARG")])
    return after, after


def _printf(w, cmd, reading, st, via):
    target = reading.get("-v")
    if target is None:
        return st, st
    from cupcake.shell.output import stdout

    after = st.copy()
    name = _name(w, target, st)
    if name:
        words = [cmd.words[0]] + list(reading.operands)
        printed = stdout(type(cmd)(words)) if reading.operands else ("", True)
        after.env[name] = printed[0] if printed and printed[1] else TAINTED
    return after, after


def _declare(w, cmd, reading, st, via):
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
        name = _name(w, Word(name, known=word.known), st) if word.known or "=" in text else None
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


def _unset(w, cmd, reading, st, via):
    after = st.copy()
    for word in _words(reading):
        name = _name(w, word, st)
        if not name:
            continue
        if reading.has("-f"):
            after.funcs = {k: v for k, v in after.funcs.items() if k != name}
            continue
        after.env[name] = UNSET
        if name == "HOME":
            after.home = None
    return after, after


def _set(w, cmd, reading, st, via):
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
    from cupcake.shell.commands import _xtrace

    _xtrace(w, after)
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


def _shopt(w, cmd, reading, st, via):
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


def _alias(w, cmd, reading, st, via):
    if any("=" in x.value or not x.known for x in _words(reading)):
        w.script.unknown("`alias` changes which program a name runs", "write the command itself", cmd)
    return st, st


def _hash(w, cmd, reading, st, via):
    if reading.has("-p"):
        w.script.unknown("`hash -p` makes a name run another program", "run the program by its own name or path", cmd)
    return st, st


def _enable(w, cmd, reading, st, via):
    if _words(reading) or reading.has("-f", "-d", "-n"):
        w.script.unknown("`enable` changes which builtins a name runs", "leave `enable` out", cmd)
    return st, st


def _fc(w, cmd, reading, st, via):
    if not reading.has("-l"):
        w.script.unknown(
            "`fc` runs commands from the history, which Cupcake cannot see", "write the command again", cmd
        )
    return st, st


def _test(w, cmd, reading, st, via):
    """``test -v 'a[$(…)]'`` and, in ``[[ ]]``, the operands of -eq/-lt/… are arithmetic."""
    words = cmd.words[1:]
    double = cmd.program == "[["
    for k, word in enumerate(words):
        if not word.known:
            continue
        if word.value == "-v" and k + 1 < len(words):
            _name(w, words[k + 1], st)
        elif double and word.value in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
            for side in (words[k - 1] if k else None, words[k + 1] if k + 1 < len(words) else None):
                if side is not None:
                    Ctx(w, st, via).arith(side.value if side.known else None, side.tainted, side.raw)
    return st, st


def _let(w, cmd, reading, st, via):
    for word in cmd.words[1:]:
        Ctx(w, st, via).arith(word.value if word.known else None, word.tainted or not word.known, word.raw)
    after = st.copy()
    for word in cmd.words[1:]:
        name = word.value.split("=", 1)[0].strip() if word.known else ""
        if name.isidentifier():
            after.env[name] = UNKNOWN
    return after, merge(after, st)


def _shift(w, cmd, reading, st, via):
    after = st.copy()
    if after.args is not None:
        ops = reading.operands
        count = int(ops[0].value) if ops and ops[0].known and ops[0].value.isdigit() else None
        after.args = None if count is None else after.args[count:]
    return after, after


def _nothing(w, cmd, reading, st, via):
    effects(w, cmd, reading, st, via)
    return st, st


HANDLERS = {
    "cd": _cd,
    "pushd": _pushd,
    "popd": _popd,
    "dirs": _dirs,
    "source": _source,
    ".": _source,
    "eval": _eval,
    "trap": _trap,
    "mapfile": _mapfile,
    "readarray": _mapfile,
    "read": _read,
    "getopts": _getopts,
    "printf": _printf,
    "declare": _declare,
    "typeset": _declare,
    "local": _declare,
    "export": _declare,
    "readonly": _declare,
    "unset": _unset,
    "set": _set,
    "shopt": _shopt,
    "alias": _alias,
    "hash": _hash,
    "enable": _enable,
    "fc": _fc,
    "test": _test,
    "[": _test,
    "[[": _test,
    "let": _let,
    "shift": _shift,
}
_ = _nothing
