"""What assigning a variable does to the shell (``NAME=value`` before a command or alone, and the
variables a wrapper such as ``env`` gives the command it runs): the value the reader keeps, and the
variables that make programs run other code (``DANGEROUS``), which are refused. Loaded when a line
assigns one."""

from __future__ import annotations

from cupcake.shell.paths import SYSTEM_DIRS
from cupcake.shell.walker import TAINTED, UNKNOWN, Ctx, State
from cupcake.shell.words import ANY, GlobValue, Word, expand

_SYSTEM_PATH = frozenset(d.rstrip("/") for d in SYSTEM_DIRS)
# Variables that make programs run other code: given to a command (or exported), a value other
# than a plain pager or editor is refused.
DANGEROUS = frozenset(
    (
        "BASH_ENV",
        "ENV",
        "LD_PRELOAD",
        "LD_LIBRARY_PATH",
        "LD_AUDIT",
        "DYLD_INSERT_LIBRARIES",
        "DYLD_LIBRARY_PATH",
        "GIT_SSH_COMMAND",
        "GIT_SSH",
        "GIT_EXTERNAL_DIFF",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_SEQUENCE_EDITOR",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "GIT_CONFIG",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_EXEC_PATH",
        "GIT_TEMPLATE_DIR",
        "GIT_PROXY_COMMAND",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "PAGER",
        "EDITOR",
        "VISUAL",
        "MANPAGER",
        "LESSOPEN",
        "LESSCLOSE",
        "BROWSER",
        "PERL5OPT",
        "PERL5DB",
        "RUBYOPT",
        "NODE_OPTIONS",
        "PYTHONSTARTUP",
        "PYTHONINSPECT",
        "MAKEFLAGS",
        "MFLAGS",
        "GNUMAKEFLAGS",
        "TAR_OPTIONS",
        "ZIPOPT",
        "UNZIP",
        "RSYNC_RSH",
        "RSYNC_CONNECT_PROG",
        "CURL_HOME",
        "WGETRC",
        "SHELLOPTS",
        "BASHOPTS",
        "PROMPT_COMMAND",
        "XDG_CONFIG_HOME",
        "GIT_CONFIG_NOSYSTEM",
        "BASH_ALIASES",
        "BASH_CMDS",
        "BASH_LOADABLES_PATH",
        "EXECIGNORE",
        "INPUTRC",
        "LESSKEY",
        "LESSKEYIN",
    )
)
_PLAIN_PAGERS = frozenset(("", "cat", "true", ":", "less", "more", "head", "tail", "false", "less -R", "less -FRX"))


def assignment(w, ctx, name, value, items):
    """(name, Word or None for an array, tainted). ``NAME+=value`` appends to what NAME holds."""
    append = name.endswith("+")
    name = name.rstrip("+")
    if append and value is not None:
        before = ctx.lookup(name)
        if before.__class__ is not str:
            fields = expand(value.parts, value.raw, ctx, assignment=True)
            return (name, None, ctx.tainted(name) or any(f.tainted for f in fields))
        name_word = assignment(w, ctx, name, value, items)[1]
        if name_word is None:
            return (name, None, False)
        joined = Word(before + name_word.value, value.raw, name_word.known, name_word.glob, name_word.quoted)
        if name_word.tokens is not None:
            joined.tokens = list(before) + list(name_word.tokens)
        joined.tainted = name_word.tainted
        return (name, joined, joined.tainted)
    if value is None:
        fields = [f for item in items or () for f in expand(item.parts, item.raw, ctx)]
        return (name, None, any(f.tainted for f in fields))
    fields = expand(value.parts, value.raw, ctx, assignment=True)
    word = Word(
        "".join(f.value for f in fields),
        value.raw,
        all(f.known for f in fields),
        glob=any(f.glob for f in fields),
        quoted=any(f.quoted for f in fields),
    )
    if len(fields) == 1 and (fields[0].glob or not fields[0].known):
        word.tokens = fields[0].tokens
    word.tainted = any(f.tainted for f in fields)
    return (name, word, word.tainted)


def assign(w, st: State, name: str, value, tainted: bool = False) -> None:
    """Set ``name`` in ``st`` (a Word, or None for an array or an unknown value)."""
    known = value is not None and value.known
    if name == "HOME":
        st.home = value.value if known and value.value else None
    if name == "OLDPWD":
        st.oldpwd = value.value if known and not value.glob else UNKNOWN
    if name == "PATH" and not (known and _system_path(value.value, w)):
        st.options = st.options | {"path"}
    if name in DANGEROUS or name.startswith("BASH_FUNC_") or name.startswith("GIT_CONFIG_"):
        _dangerous(w, name, value)
    if name == "PS4" and (not known or "$" in value.value or "`" in value.value):
        st.options = st.options | {"ps4"}
        xtrace(w, st)
    if value is not None and value.glob and value.tokens is not None and value.known:
        st.env[name] = GlobValue(value.value, value.tokens, _can_blank(value.tokens))
    elif known and not value.glob:
        st.env[name] = value.value
    elif value is not None and not value.known and value.tokens is not None and ANY not in value.tokens:
        st.env[name] = GlobValue(value.value, value.tokens, _can_blank(value.tokens))
    else:
        st.env[name] = TAINTED if (tainted or (value is not None and value.tainted)) else UNKNOWN


def _can_blank(tokens) -> bool:
    for tok in tokens:
        if tok.__class__ is str:
            if tok in " \t\n":
                return True
        elif tok.__class__ is tuple:
            if any(lo <= " " <= hi or lo <= "\t" <= hi for lo, hi in tok[1]) or tok[0]:
                return True
        else:
            return True
    return False


def _system_path(value: str, w) -> bool:
    original = w.base_env.get("PATH") or ""
    parts = [p for p in value.split(":") if p]
    return all(p.rstrip("/") in _SYSTEM_PATH or p in original.split(":") for p in parts)


def _dangerous(w, name: str, value) -> None:
    if (
        value is not None
        and value.known
        and value.value in _PLAIN_PAGERS
        and name not in ("BASH_ENV", "ENV", "LD_PRELOAD")
    ):
        return
    if value is not None and value.known and value.value == "":
        return
    w.script.unknown(
        f"`{name}=…` makes the programs that follow run code Cupcake cannot see",
        f"run the command without setting {name}",
    )


def xtrace(w, st: State) -> None:
    """``PS4`` is expanded before every command bash traces (``set -x``): its ``$(…)`` run."""
    if "xtrace" not in st.options or "ps4" not in st.options:
        return
    value = st.env.get("PS4")
    if isinstance(value, str):
        Ctx(w, st.copy(), ("PS4",)).code(value, "$PS4")
        cwd = st.cwd
        st2 = st.copy()
        st2.cwd = None  # it runs before each later command, wherever that runs
        Ctx(w, st2, ("PS4",)).code(value, "$PS4")
        st.cwd = cwd
    else:
        w.script.unknown("`PS4` with `set -x` runs code Cupcake cannot see before each command", "leave PS4 as it is")
