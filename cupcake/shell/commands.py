"""One simple command: its words expanded, its wrappers peeled with the registry of programs
(``cupcake.programs``), the function or builtin it calls, and what the program does — the files
it writes and reads, the code and scripts it runs, read in turn. Everything the reader cannot
follow is said (``Script.unknown``) rather than guessed.

What most lines need is here; the rest is loaded when a line needs it: assignments in
``variables``, a function's body and the code a program runs in ``runs`` (through ``Parts``),
builtins in ``builtins``."""

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
from cupcake.shell.model import Command, Read, Redirect, Write, normpath
from cupcake.shell.paths import SYSTEM_DIRS, base, directory
from cupcake.shell.walker import Ctx
from cupcake.shell.words import ANY, Word, expand

# Programs whose targets may afterwards be a link (or a moved directory) a later path goes through.
_LINKERS = frozenset(("ln", "link", "cp", "gcp", "mv", "gmv", "rsync", "scp", "install", "git"))
_NOFOLLOW = (DELETES, LINKS)


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
    from cupcake.shell.printed import items

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
    if node.assigns:
        from cupcake.shell.variables import assignment

        for name, value, items in node.assigns:
            assigns.append(assignment(w, ctx, name, value, items))
    redirects = _redirects(ctx, node.redirs)
    if not words:
        if redirects:
            holder = Command((), redirects, assigns, st.cwd, st.home, via)
            _redirect_effects(w, holder, st)
            w.script.redirect_only.append(holder)
        if assigns:
            from cupcake.shell.variables import assign

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
    paths.pin(out, w.made, follow, w.budget, w.script.resolved)
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
    alone = False  # the reading is the registry's answer for the final words alone
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
            _add(w, cmd)
            return w.parts.call(w, cmd, st, via, name, env)
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
        reading, alone = _read(spec, words + ([_EXTRA] if cmd.extra_args else []), st)
        alone = alone and not cmd.extra_args
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
    cmd.reading_alone = reading is not None and alone
    if not _identify(w, cmd, st, in_shell):
        reading = None
    _add(w, cmd)
    cmd.fold = "nocaseglob" in st.options
    if env:
        from cupcake.shell.variables import assign

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
        w.parts.shell(w, cmd, reading, sub or st, via)
        _made(w, cmd)
    else:
        effects(w, cmd, reading, sub or st, via)
    return st, st, cmd


def _read(spec, words, st):
    """(the registry's reading, whether it is the reading of ``words`` alone); with ``nullglob`` on, a
    glob operand may vanish: both readings, in one."""
    reading = programs.reading_of(spec, words)
    if "nullglob" in st.options and any(w.glob for w in words[1:]):
        without = programs.reading_of(spec, [words[0]] + [w for w in words[1:] if not w.glob])
        reading.effects += without.effects
        return reading, False
    return reading, True


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
    for _at, directory_word in reading.chdirs:
        cmd.cwd = directory(directory_word, cmd.cwd)
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


# ## what the program does ##


def effects(w, cmd, reading, st, via, wrapper: bool = False) -> None:
    for effect in reading.effects:
        apply_effect(w, cmd, effect, st, via)
    for phrase in reading.unknown:
        w.script.unknown(phrase, "write the option and its value out plainly", cmd)
    for words, same_dir in getattr(reading, "more", ()) or ():
        sub = Command(words, (), (), cmd.cwd if same_dir else None, cmd.home, cmd.via + ("find -exec",))
        dispatch(w, sub, st.copy(), cmd.via + ("find -exec",), [])
    if not wrapper:
        _made(w, cmd)


def _change(w, cmd, effect, st, via) -> None:
    tag = effect.tag
    worktree = tag == INTO and effect.language == "git"
    write = _write(
        w,
        cmd,
        Write,
        effect.what,
        effect.word,
        base(cmd, effect),
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
    read = _write(w, cmd, Read, effect.what, effect.word, base(cmd, effect), effect.tree, True)
    if read is not None:
        read.effect = effect
        cmd.reads.append(read)


def _runs_code(w, cmd, effect, st, via) -> None:
    """Code the program runs (a shell text, a script, inline code…): read in ``runs``."""
    w.parts.code_effect(w, cmd, effect, st, via)


_EFFECTS = {
    WRITES: _change,
    DELETES: _change,
    MODE: _change,
    LINKS: _change,
    INTO: _change,
    READS: _read_effect,
    RUNS: _runs_code,
    SCRIPT: _runs_code,
    CODE: _runs_code,
    STDIN_CODE: _runs_code,
    CONFIG: _runs_code,
    UNKNOWN_EFFECT: _runs_code,
    CHDIR: lambda *a: None,
}


def apply_effect(w, cmd, effect, st, via) -> None:
    """One effect, as the reading of ``cmd`` would apply it (a tag with no handler does nothing)."""
    handler = _EFFECTS.get(effect.tag)
    if handler is not None:
        handler(w, cmd, effect, st, via)


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
