"""What bash's builtins do to the shell, one handler per builtin in ``HANDLERS``. The directory's
(``cd``, ``pushd``, ``popd``, ``dirs``) and ``test`` are here: a line that changes directory or tests a
file needs nothing more. The others, named in ``HANDLERS`` and loaded when a line calls one, are in
``state_builtins``: variables (``read``, ``declare``, ``printf -v``…), positional parameters (``set --``,
``shift``), options (``set -P``, ``shopt -s nocaseglob``), code they run now or later (``eval``,
``source``, ``trap``, ``mapfile -C``), and the ones that change which program a name runs (``alias``,
``hash -p``, ``enable``), which the reader refuses."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.shell.commands import effects
from cupcake.shell.limits import LINK_CHECK_COST
from cupcake.shell.paths import directory
from cupcake.shell.walker import Ctx, State, merge
from cupcake.shell.words import Word

TYPE_CHECKING = False  # not typing's: the Bash reader is on the hot path
if TYPE_CHECKING:  # annotations only
    from collections.abc import Callable


def run_builtin(w, cmd, reading, st, via):
    handler = HANDLERS.get(cmd.program)
    if handler is None:
        effects(w, cmd, reading, st, via)
        return st, st, cmd
    if isinstance(handler, str):  # a handler of ``state_builtins``, by its name
        import cupcake.shell.state_builtins as state_builtins  # (missing: ModuleNotFoundError, as any module)

        handler = getattr(state_builtins, handler)
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
    target = directory(word, st.cwd)
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
        candidate = directory(Word(base.rstrip("/") + "/" + word.value), st.cwd)
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
    target = directory(operands[0], st.cwd)
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


def _isdir(path: str) -> bool:
    try:
        return os.path.isdir(path) and os.access(path, os.X_OK)  # a cd into it can succeed
    except (OSError, ValueError):
        return False


# ## tests ##


def _test(w, cmd, reading, st, via):
    """``test -v 'a[$(…)]'`` and, in ``[[ ]]``, the operands of -eq/-lt/… are arithmetic."""
    words = cmd.words[1:]
    double = cmd.program == "[["
    for k, word in enumerate(words):
        if not word.known:
            continue
        if word.value == "-v" and k + 1 < len(words):
            from cupcake.shell.state_builtins import name_of

            name_of(w, words[k + 1], st)
        elif double and word.value in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
            for side in (words[k - 1] if k else None, words[k + 1] if k + 1 < len(words) else None):
                if side is not None:
                    Ctx(w, st, via).arith(side.value if side.known else None, side.tainted, side.raw)
    return st, st


def _nothing(w, cmd, reading, st, via):
    effects(w, cmd, reading, st, via)
    return st, st


# builtin -> its handler here, or the name of its handler in ``state_builtins`` (loaded when called)
HANDLERS: dict[str, Callable | str] = {
    "cd": _cd,
    "pushd": _pushd,
    "popd": _popd,
    "dirs": _dirs,
    "test": _test,
    "[": _test,
    "[[": _test,
    "source": "source",
    ".": "source",
    "eval": "eval_text",
    "trap": "trap",
    "mapfile": "mapfile",
    "readarray": "mapfile",
    "read": "read",
    "getopts": "getopts",
    "printf": "printf_v",
    "declare": "declare",
    "typeset": "declare",
    "local": "declare",
    "export": "declare",
    "readonly": "declare",
    "unset": "unset",
    "set": "set_options",
    "shopt": "shopt",
    "alias": "alias",
    "hash": "hash_p",
    "enable": "enable",
    "fc": "fc",
    "let": "let",
    "shift": "shift",
}
