"""One simple command: its words expanded, its wrappers peeled with the registry of programs
(``cupcake.programs``), the function or builtin it calls, and what the program does — the files
it writes and reads, the code and scripts it runs, read in turn. Everything the reader cannot
follow is said (``Script.unknown``) rather than guessed."""

from __future__ import annotations

from cupcake import programs
from cupcake.programs.spec import (
    BUILTIN,
    CHDIR,
    CODE,
    CONFIG,
    DELETES,
    INTO,
    LINKS,
    MODE,
    READS,
    RUNS,
    SCRIPT,
    SHELL,
    STDIN_CODE,
    WRITES,
)
from cupcake.programs.spec import (
    UNKNOWN as UNKNOWN_EFFECT,
)
from cupcake.shell import paths
from cupcake.shell.model import Command, Opaque, Read, Redirect, Write, normpath
from cupcake.shell.walker import TAINTED, UNKNOWN, Ctx, State, merge
from cupcake.shell.words import ANY, GlobValue, Word, expand

# Where a program named by its path is the one its name says (a copy elsewhere may be anything).
SYSTEM_DIRS = (
    "/bin/",
    "/usr/bin/",
    "/usr/local/bin/",
    "/sbin/",
    "/usr/sbin/",
    "/usr/local/sbin/",
    "/opt/homebrew/bin/",
)
_SYSTEM_PATH = frozenset(d.rstrip("/") for d in SYSTEM_DIRS)
# Programs whose targets may afterwards be a link (or a moved directory) a later path goes through.
_LINKERS = frozenset(("ln", "link", "cp", "gcp", "mv", "gmv", "rsync", "scp", "install", "git"))
_NOFOLLOW = (DELETES, LINKS)
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


_EXTRA = Word("…", "…", known=False, tokens=[ANY])  # the arguments xargs adds, which the reader cannot see


def _batches(w, cmd, st, via, env, words, extra):
    """``xargs -n N``: one run of the command per group of N arguments."""
    last = None
    for k in range(0, min(len(extra), 64 * cmd.batch), cmd.batch):
        run = Command(words + extra[k : k + cmd.batch], cmd.redirects, cmd.assignments, cmd.cwd, cmd.home, cmd.via)
        run.wrappers, run.stdin_from, run.stdin_text = cmd.wrappers, cmd.stdin_from, cmd.stdin_text
        _ok, _fail, last = dispatch(w, run, st, via, env)
    return st, st, last


def _items(cmd) -> list:
    """The arguments xargs adds: what the command feeding it prints, when the reader can tell."""
    from cupcake.shell.output import items

    found = items(cmd.stdin_from) if cmd.stdin_from is not None else None
    if found is None and cmd.stdin_text is not None and cmd.stdin_text[1]:
        found = [Word(x) for x in cmd.stdin_text[0].split()]
    return found if found else [_EXTRA]


def basename(text: str) -> str:
    return text.rstrip("/").rsplit("/", 1)[-1] if "/" in text else text


# ## a simple command ##


def simple(w, node, st, via, piped):
    ctx = Ctx(w, st, via)
    words = []
    conditional = bool(node.words) and node.words[0].raw == "[["  # [[ ]]: no splitting, no globbing
    for raw in node.words:
        if conditional:
            fields = expand(raw.parts, raw.raw, ctx, assignment=True)
            word = Word("".join(f.value for f in fields), raw.raw, all(f.known for f in fields), quoted=True)
            word.tainted = any(f.tainted for f in fields)
            if not word.known:
                word.tokens = [ANY]
            words.append(word)
        else:
            words.extend(expand(raw.parts, raw.raw, ctx))
    assigns = []
    for name, value, items in node.assigns:
        assigns.append(_assignment(w, ctx, name, value, items))
    redirects = _redirects(ctx, node.redirs)
    if not words:
        if redirects:
            holder = Command((), redirects, assigns, st.cwd, st.home, via)
            _redirect_effects(w, holder, st)
            w.script.redirect_only.append(holder)
        if assigns:
            st = st.copy()
            for name, value, tainted in assigns:
                assign(w, st, name, value, tainted)
        return st, st, None
    home = st.home
    for name, value, _t in assigns:
        if name == "HOME":
            home = value.value if value is not None and value.exact else None
    cmd = Command(words, redirects, [(n, v) for n, v, _t in assigns], st.cwd, home, via)
    if piped is not None:
        cmd.stdin_text, cmd.stdin_from = piped
    env = [(n, v, t) for n, v, t in assigns]
    return dispatch(w, cmd, st, via, env)


def _assignment(w, ctx, name, value, items):
    """(name, Word or None for an array, tainted). ``NAME+=value`` appends to what NAME holds."""
    append = name.endswith("+")
    name = name.rstrip("+")
    if append and value is not None:
        before = ctx.lookup(name)
        if before.__class__ is not str:
            fields = expand(value.parts, value.raw, ctx, assignment=True)
            return (name, None, ctx.tainted(name) or any(f.tainted for f in fields))
        name_word = _assignment(w, ctx, name, value, items)[1]
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
        _xtrace(w, st)
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


def _xtrace(w, st: State) -> None:
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


def _redirects(ctx, redirs) -> list:
    out = []
    for r in redirs:
        if r.op in ("<<", "<<-"):
            target = Word(r.delimiter, r.word.raw)
            body, known = "", True
            if r.body is not None:
                fields = expand(r.body, "", ctx, assignment=True)
                body = "".join(f.value for f in fields)
                known = all(f.known for f in fields)
            out.append(Redirect(r.op, r.fd, target, body, known))
            continue
        fields = expand(r.word.parts, r.word.raw, ctx)
        if len(fields) == 1:
            target = fields[0]
        else:
            target = Word(" ".join(f.value for f in fields), r.word.raw, False, tokens=[ANY])
        if r.op == "<<<":
            out.append(Redirect(r.op, r.fd, target, target.value + "\n", target.known))
        else:
            out.append(Redirect(r.op, r.fd, target))
    return out


def redirections(w, redirs, st, via) -> None:
    """The redirections of a compound command (``{ …; } > f``)."""
    ctx = Ctx(w, st, via)
    holder = Command((), _redirects(ctx, redirs), (), st.cwd, st.home, via)
    _redirect_effects(w, holder, st)
    w.script.redirect_only.append(holder)


def _redirect_effects(w, cmd, st) -> None:
    for r in cmd.redirects:
        if r.writes:
            write = _write(w, cmd, Write, "redirection", r.target, cmd.cwd, False, True)
            if write is not None:
                cmd.writes.append(write)
                text = None
                if r.op in (">", ">|") and r.fd in (None, 1):
                    from cupcake.shell.output import stdout  # what is written: only for a redirected output

                    text = stdout(cmd)
                _remember(w, write, text)
        if r.reads and not r.writes:
            read = _write(w, cmd, Read, "<", r.target, cmd.cwd, False, True)
            if read is not None:
                cmd.reads.append(read)


def _write(w, cmd, kind_class, kind, word, cwd, tree, follow, worktree=False):
    """A Write (or Read) of ``word`` from ``cwd``, resolved the way the kernel would."""
    out = kind_class(kind, word, cwd, tree, worktree, cmd)
    out.fold = cmd.fold
    if cmd.remapped:
        out.unpin([ANY])
        return out
    if out.path is not None and paths.harmless(out.path):
        return None
    paths.pin(out, w.made, follow, w.budget)
    return out


def _remember(w, write, text) -> None:
    """What this command leaves in a file it writes (for a script it runs next)."""
    if write.path is not None:
        w.files[write.path] = text if text is not None and text[1] else None


# ## which program runs ##


def dispatch(w, cmd, st, via, env):
    words = list(cmd.words)
    bypass = False  # `command`/`builtin`: functions are not looked up
    in_shell = True  # still the shell itself (builtins change its state)
    reading = None
    sub = None  # the state a child process sees (the command's own variables)
    for _ in range(16):
        first = words[0] if words else None
        if first is None:
            return st, st, None
        if not first.known:
            cmd.words = tuple(words)
            _add(w, cmd)
            w.script.unknown(
                f"the program this command runs (`{first.value}`) is not written out",
                "write the program's name itself",
                cmd,
            )
            return st, st, cmd
        name = basename(first.value)
        if in_shell and not bypass and name in st.funcs:
            cmd.words = tuple(words)
            return _call(w, cmd, st, via, name, env)
        if cmd.extra_args:
            extra = _items(cmd)
            if extra[0] is not _EXTRA:  # what xargs adds is known (as words, or as a pattern)
                cmd.extra_args = False
                if cmd.batch and len(extra) > cmd.batch and all(x.exact for x in extra):
                    return _batches(w, cmd, st, via, env, words, extra)
                words = words + extra
        spec = programs.lookup(name)
        if spec is None:
            break
        reading = _read(spec, words + ([_EXTRA] if cmd.extra_args else []), st)
        if not reading.inner or (spec.kind == BUILTIN and name not in ("exec", "command", "builtin")):
            break
        _wrapper(w, cmd, reading, st, via)
        if reading.path[0] in ("command", "builtin"):
            bypass = True
        else:
            in_shell = False
        if reading.env:
            env = env + [(n, v, v.tainted) for n, v in reading.env]
        via = cmd.via
        words = list(reading.inner)
        reading = None
    cmd.words = tuple(words)
    cmd.reading = reading
    if not _identify(w, cmd, st, in_shell):
        reading = None
    _add(w, cmd)
    cmd.fold = "nocaseglob" in st.options
    if env:
        sub = st.copy()
        for name, value, tainted in env:
            assign(w, sub, name, value, tainted)
    _redirect_effects(w, cmd, st)
    if reading is None:
        return st, st, cmd
    kind = reading.top.kind
    if kind == BUILTIN and in_shell:
        return w.parts.run_builtin(w, cmd, reading, sub or st, via)
    if kind == SHELL:
        _shell(w, cmd, reading, sub or st, via)
    else:
        effects(w, cmd, reading, sub or st, via)
    return st, st, cmd


def _read(spec, words, st):
    """The registry's reading; with ``nullglob`` on, a glob operand may vanish: both readings."""
    reading = programs.reading_of(spec, words)
    if "nullglob" in st.options and any(w.glob for w in words[1:]):
        alone = programs.reading_of(spec, [words[0]] + [w for w in words[1:] if not w.glob])
        reading.effects += alone.effects
    return reading


def _wrapper(w, cmd, reading, st, via) -> None:
    """Record a wrapper and what it changes for the command it runs."""
    name = " ".join(reading.path)
    cmd.wrappers = cmd.wrappers + (tuple(x.value for x in reading.words[: len(reading.words) - len(reading.inner)]),)
    cmd.via = cmd.via + (name,)
    if reading.extra:
        cmd.extra_args = True
        size = reading.get("-n", "--max-args", "-L", "--max-lines", "-l")
        cmd.batch = (
            int(size.value) if size is not None and size.known and size.value.isdigit() and int(size.value) > 0 else 0
        )
    if reading.remap:
        cmd.remapped = True
    for _at, directory in reading.chdirs:
        cmd.cwd = _directory(directory, cmd.cwd)
    effects(w, cmd, reading, st, via, wrapper=True)


def _identify(w, cmd, st, in_shell: bool) -> bool:
    """Whether the program is the one its name says. A path outside the system's directories, a
    bare name after PATH changed, or a name this command wrote a file under is not (its registry
    reading still counts, and its arguments are checked as handed to an unknown program)."""
    first = cmd.words[0].value
    if "/" in first:
        path = first if first.startswith("/") else (None if cmd.cwd is None else normpath(cmd.cwd + "/" + first))
        if path is not None and _written(w, path):
            w.script.unknown(
                f"this command runs `{first}`, a file it writes first",
                "write the file and run it in separate calls",
                cmd,
            )
        if path is None or not path.startswith(SYSTEM_DIRS):
            cmd.identified = False
        return True
    if cmd.reading is not None and cmd.reading.top.kind == BUILTIN:
        return True
    if "path" in st.options:
        cmd.identified = False
    writes = w.script.writes
    if not w.budget.spend(len(writes)):  # every earlier write, on every command: paid for
        cmd.identified = False
        return True
    for write in writes:
        if write.could_name(first) and not write.kind.startswith("git"):
            w.script.unknown(
                f"this command writes a file named `{first}` and then runs `{first}`",
                "write the file and run it in separate calls",
                cmd,
            )
            cmd.identified = False
            break
    return True


def _written(w, path: str) -> bool:
    writes = w.script.writes
    if path in w.files or not w.budget.spend(len(writes)):
        return True
    return any(write.could_be(path) for write in writes)


def _add(w, cmd) -> bool:
    budget = w.budget
    budget.commands -= 1
    if budget.commands < 0:
        budget.stop("too many commands")
        return False
    budget.spend(10)
    w.script.commands.append(cmd)
    return True


def _call(w, cmd, st, via, name, env):
    """A function: its body runs in this shell with the call's words as $1, $2…"""
    body = st.funcs.get(name)
    _add(w, cmd)
    if body is None:
        w.script.unknown(f"`{name}` is defined differently on two paths of this command", "define it once", cmd)
        return st, st, cmd
    if w.depth >= 32:
        w.budget.stop("nesting too deep")
        return st, st, cmd
    inner = st.copy()
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


def _directory(word, cwd):
    if not word.exact or not word.value:
        return None
    if word.value.startswith("/"):
        return normpath(word.value)
    return None if cwd is None else normpath(cwd.rstrip("/") + "/" + word.value)


# ## what the program does ##


def effects(w, cmd, reading, st, via, wrapper: bool = False) -> None:
    for effect in reading.effects:
        handler = _EFFECTS.get(effect.tag)
        if handler is not None:
            handler(w, cmd, effect, st, via)
    for phrase in reading.unknown:
        w.script.unknown(phrase, "write the option and its value out plainly", cmd)
    for words, same_dir in getattr(reading, "more", ()) or ():
        sub = Command(words, (), (), cmd.cwd if same_dir else None, cmd.home, cmd.via + ("find -exec",))
        dispatch(w, sub, st.copy(), cmd.via + ("find -exec",), [])
    if not wrapper:
        _made(w, cmd)


def _base(cmd, effect):
    """The directory an effect's relative path is taken from (``-C`` and the like applied)."""
    cwd = cmd.cwd
    for word in effect.base:
        cwd = _directory(word, cwd)
    return cwd


def _change(w, cmd, effect, st, via) -> None:
    tag = effect.tag
    worktree = tag == INTO and effect.language == "git"
    write = _write(
        w,
        cmd,
        Write,
        effect.what,
        effect.word,
        _base(cmd, effect),
        effect.tree or tag == INTO,
        tag not in _NOFOLLOW,
        worktree,
    )
    if write is None:
        return
    write.effect = effect
    cmd.writes.append(write)
    _remember(w, write, None)


def _read_effect(w, cmd, effect, st, via) -> None:
    read = _write(w, cmd, Read, effect.what, effect.word, _base(cmd, effect), effect.tree, True)
    if read is not None:
        read.effect = effect
        cmd.reads.append(read)


def _runs(w, cmd, effect, st, via) -> None:
    """A command line the program runs through a shell: read it like this one."""
    word = effect.word
    sub = st.copy()
    sub.cwd = _base(cmd, effect) if effect.base else cmd.cwd
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


_EFFECTS = {
    WRITES: _change,
    DELETES: _change,
    MODE: _change,
    LINKS: _change,
    INTO: _change,
    READS: _read_effect,
    RUNS: _runs,
    SCRIPT: _script,
    CODE: _code,
    STDIN_CODE: stdin_code,
    CONFIG: _config,
    UNKNOWN_EFFECT: _unknown_effect,
    CHDIR: lambda *a: None,
}


def apply_effect(w, cmd, effect, st, via) -> None:
    """One effect, as the reading of ``cmd`` would apply it."""
    _EFFECTS[effect.tag](w, cmd, effect, st, via)


def _made(w, cmd) -> None:
    """After a command: the paths where it may have left a link (or a tree holding some), with
    where the link leads when the reader knows (``ln -s SOURCE DEST``, ``cp -l SOURCE DEST``)."""
    linker = cmd.program in _LINKERS
    target = _link_target(cmd)
    for write in cmd.writes:
        effect = write.effect
        if effect is None or effect.tag in (DELETES, LINKS, MODE):
            continue
        if linker or write.worktree:
            w.made.append((write, not write.worktree, target if write.path is not None else None))
        elif write.recursive:
            w.made.append((write, False, None))


def _link_target(cmd):
    """The path a link ``cmd`` makes leads to: one source, known (a symbolic one relative to the
    link's directory), else None."""
    sources = [x for x in cmd.writes if x.effect is not None and x.effect.tag == LINKS]
    dests = [x for x in cmd.writes if x.effect is not None and x.effect.tag == WRITES and x.path is not None]
    if len(sources) != 1 or not dests or sources[0].path is None:
        return None
    reading = cmd.reading
    symbolic = reading is not None and reading.has("-s", "--symbolic", "--symbolic-link")
    source = sources[0]
    if symbolic and not source.word.value.startswith("/"):
        if len(dests) > 2:
            return None
        return normpath(dests[0].path.rsplit("/", 1)[0] + "/" + source.word.value)
    return source.path


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


def _shell(w, cmd, reading, st, via) -> None:
    if "BASH_ENV" in st.env or "ENV" in st.env:
        w.script.unknown(
            "a shell started with BASH_ENV or ENV set first runs a file Cupcake does not read", "unset it", cmd
        )
    if reading.has("-x") and "ps4" in st.options:
        sub = st.copy()
        sub.options = sub.options | {"xtrace"}
        _xtrace(w, sub)
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
            handler = _EFFECTS.get(effect.tag)
            if handler is not None:
                handler(w, cmd, effect, st, via)
    _made(w, cmd)


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
