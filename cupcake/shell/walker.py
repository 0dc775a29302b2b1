"""From the tree to the commands that run: expansion, unwrapping, and the shell's state.

The walker follows bash's order of execution and carries a ``State`` (working directory, home,
previous directory, directory stack, variables). A state is "unknown" where the reader cannot
know it: ``cd`` to a directory that may not exist (``cd /nonexistent 2>/dev/null; …``), to a
variable, ``popd`` of an unknown stack, after ``source``. Each step returns the state after
success and after failure, so ``cd d && x`` runs ``x`` in ``d`` whatever ``d`` is, and ``( cd d )``
or a pipeline element changes nothing outside. Nested code (``$(…)``, ``sh -c``, ``eval``, scripts
fed to a shell, ``find -exec``, ``xargs``) is read and walked as commands that run.
"""

from __future__ import annotations

from cupcake.shell import unwrap
from cupcake.shell.grammar import Parser, Simple
from cupcake.shell.limits import MAX_DEPTH, MAX_LOOP_ITEMS
from cupcake.shell.model import Command, Opaque, Redirect, normpath
from cupcake.shell.words import GlobValue, Word, expand

_UNKNOWN = object()
_SHELL_VARIABLES = {"HOME", "PWD", "OLDPWD", "IFS", "PATH", "CDPATH"}
_ASSIGNING = {"export", "declare", "typeset", "local", "readonly"}
_READING = {"read", "mapfile", "readarray", "getopts"}


class State:
    __slots__ = ("cwd", "home", "oldpwd", "stack", "env", "wild", "funcs")

    def __init__(self, cwd, home, env):
        self.cwd = cwd
        self.home = home
        self.oldpwd = _UNKNOWN
        self.stack = []
        self.env = env  # variables the script set: name -> value or _UNKNOWN
        self.wild = False  # every variable unknown (after `source`)
        self.funcs = {}

    def copy(self) -> State:
        st = State(self.cwd, self.home, dict(self.env))
        st.oldpwd, st.stack, st.wild, st.funcs = (
            self.oldpwd,
            None if self.stack is None else list(self.stack),
            self.wild,
            self.funcs,
        )
        return st


def merge(a: State, b: State) -> State:
    if a is b:
        return a
    st = a.copy()
    if a.cwd != b.cwd:
        st.cwd = None
    if a.home != b.home:
        st.home = None
    if a.oldpwd != b.oldpwd:
        st.oldpwd = _UNKNOWN
    if a.stack != b.stack:
        st.stack = None
    for key in set(a.env) | set(b.env):
        if a.env.get(key, _UNKNOWN) != b.env.get(key, _UNKNOWN):
            st.env[key] = _UNKNOWN
    st.wild = a.wild or b.wild
    return st


class _Ctx:
    """What ``words.expand`` needs: variable values, and a way to run a substitution."""

    __slots__ = ("walker", "st", "via", "budget")

    def __init__(self, walker, st, via):
        self.walker, self.st, self.via, self.budget = walker, st, via, walker.budget

    def lookup(self, name):
        return self.walker.lookup(self.st, name)

    def run(self, node, label) -> None:
        self.walker.walk_seq(node, self.st.copy(), self.via + (label,))


class Walker:
    def __init__(self, script, base_env: dict, budget, check_dirs: bool = True):
        self.script = script
        self.base_env = base_env
        self.budget = budget
        self.check_dirs = check_dirs
        self.depth = 0

    def lookup(self, st: State, name: str):
        if name in st.env:
            value = st.env[name]
            return None if value is _UNKNOWN else value
        if st.wild:
            return None
        if name == "HOME":
            return st.home
        if name == "PWD":
            return st.cwd
        if name == "OLDPWD":
            return None if st.oldpwd is _UNKNOWN else st.oldpwd
        value = self.base_env.get(name)
        return value if isinstance(value, str) else None

    def walk_text(self, text: str, st: State, via: tuple):
        """Read ``text`` as a script and walk it from ``st``: (ok, fail)."""
        if self.depth >= MAX_DEPTH or self.budget.stopped:
            self.budget.stop("nesting too deep")
            return st, st
        if not self.budget.spend(len(text)):
            return st, st
        self.depth += 1
        try:
            seq = Parser(text, self.budget, self.depth, self.script.syntax_errors).parse()
            return self.walk_seq(seq, st, via)
        finally:
            self.depth -= 1

    # ## structure ##

    def walk_seq(self, seq, st: State, via: tuple):
        ok = fail = st
        for andor, background in seq.items:
            if self.budget.stopped:
                break
            if background:
                self.walk_andor(andor, st.copy(), via)
                ok = fail = st
            else:
                ok, fail = self.walk_andor(andor, st, via)
                st = merge(ok, fail)
        return ok, fail

    def walk_andor(self, andor, st, via):
        ok, fail = self.walk_pipeline(andor.first, st, via)
        for op, pipeline in andor.rest:
            if op == "&&":
                ok2, fail2 = self.walk_pipeline(pipeline, ok, via)
                ok, fail = ok2, merge(fail, fail2)
            else:
                ok2, fail2 = self.walk_pipeline(pipeline, fail, via)
                ok, fail = merge(ok, ok2), fail2
        return ok, fail

    def walk_pipeline(self, pipeline, st, via):
        if pipeline.timed:
            via = via + ("time",)
        cmds = pipeline.cmds
        if len(cmds) == 1:
            ok, fail, _last = self.walk_node(cmds[0], st, via, None)
            return (fail, ok) if pipeline.negated else (ok, fail)
        feed = None
        previous = None
        for node in cmds:
            _ok, _fail, last = self.walk_node(node, st.copy(), via, (feed, previous))
            feed = _stdout(last) if last is not None else None
            previous = last
        return st, st

    def walk_node(self, node, st, via, piped):
        """(ok state, fail state, last Command produced)."""
        if self.budget.stopped or node is None:
            return st, st, None
        if node.__class__ is Simple:
            return self.simple(node, st, via, piped)
        kind = node.kind
        before = len(self.script.commands)
        if node.redirs:
            redirects = self._redirects(node.redirs, st, via)
            holder = Command((), redirects, (), st.cwd, st.home, via)
            self.script.redirect_only.append(holder)
        if kind == "subshell":
            self.walk_seq(node.a, st.copy(), via)
            ok = fail = st
        elif kind == "group":
            ok, fail = self.walk_seq(node.a, st, via)
        elif kind == "if":
            results = []
            cur = st
            for cond, body in node.a:
                c_ok, c_fail = self.walk_seq(cond, cur, via)
                results.append(self.walk_seq(body, c_ok, via))
                cur = c_fail
            results.append(self.walk_seq(node.b, cur, via) if node.b is not None else (cur, cur))
            ok, fail = results[0]
            for r_ok, r_fail in results[1:]:
                ok, fail = merge(ok, r_ok), merge(fail, r_fail)
        elif kind in ("while", "until"):
            c_ok, c_fail = self.walk_seq(node.a, st, via)
            b_ok, b_fail = self.walk_seq(node.b, c_ok if kind == "while" else c_fail, via)
            ok = fail = merge(merge(st, c_fail), merge(b_ok, b_fail))
        elif kind == "for":
            ok, fail = self._for(node, st, via)
        elif kind == "case":
            ctx = _Ctx(self, st, via)
            if node.a is not None:
                expand(node.a.parts, node.a.raw, ctx)
            ok = fail = st
            for patterns, body in node.b:
                for pattern in patterns:
                    expand(pattern.parts, pattern.raw, ctx)
                r_ok, r_fail = self.walk_seq(body, st, via)
                ok, fail = merge(ok, r_ok), merge(fail, r_fail)
        elif kind == "func":
            name = node.a or ""
            self.script.functions.append(name)
            inner = st.copy()
            r_ok, _r = self.walk_node(node.b, inner, via + (f"function {name}",), None)[:2]
            st.funcs = dict(st.funcs)
            st.funcs[name] = r_ok.cwd != inner.cwd or r_ok.cwd != st.cwd
            ok = fail = st
        elif kind == "coproc":
            self.walk_node(node.b, st.copy(), via + ("coproc",), None)
            ok = fail = st
        elif kind == "arith":
            for sub in node.b:
                self.walk_seq(sub, st.copy(), via + ("$(…)",))
            ok = fail = st
        else:
            ok = fail = st
        commands = self.script.commands
        return ok, fail, commands[-1] if len(commands) > before else None

    def _for(self, node, st, via):
        if node.a is None:  # for ((…))
            for sub in node.b or ():
                self.walk_seq(sub, st.copy(), via + ("$(…)",))
            ok, fail = self.walk_seq(node.c, st, via)
            return merge(st, ok), merge(st, fail)
        ctx = _Ctx(self, st, via)
        items = []
        if node.b is None:
            items = None
        else:
            for word in node.b:
                items.extend(expand(word.parts, word.raw, ctx))
        known = items is not None and len(items) <= MAX_LOOP_ITEMS and all(w.known for w in items)
        if known and node.a in _SHELL_VARIABLES and not all(w.exact for w in items):
            known = False  # $HOME, $PWD… are read as text elsewhere: a pattern there is unknown
        result = st
        if known and items:
            for word in items:
                inner = st.copy()
                # a glob item: the variable holds one of the names it matches, kept as the pattern
                inner.env[node.a] = word.value if word.exact else GlobValue(word.value, word.pattern())
                r_ok, r_fail = self.walk_seq(node.c, inner, via)
                result = merge(result, merge(r_ok, r_fail))
        else:
            inner = st.copy()
            inner.env[node.a] = _UNKNOWN
            r_ok, r_fail = self.walk_seq(node.c, inner, via)
            result = merge(result, merge(r_ok, r_fail))
        return result, result

    # ## simple commands ##

    def _redirects(self, redirs, st, via) -> list:
        ctx = _Ctx(self, st, via)
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
                target = Word(" ".join(f.value for f in fields), r.word.raw, False, tokens=None)
                target.tokens = [3]
            if r.op == "<<<":
                out.append(Redirect(r.op, r.fd, target, target.value + "\n", target.known))
            else:
                out.append(Redirect(r.op, r.fd, target))
        return out

    def simple(self, node, st, via, piped):
        ctx = _Ctx(self, st, via)
        words = []
        for raw in node.words:
            words.extend(expand(raw.parts, raw.raw, ctx))
        redirects = self._redirects(node.redirs, st, via)
        assigns = []
        for name, value, items in node.assigns:
            if value is None:
                for item in items or ():
                    expand(item.parts, item.raw, ctx)
                assigns.append((name, None))
            else:
                fields = expand(value.parts, value.raw, ctx, assignment=True)
                assigns.append(
                    (
                        name,
                        Word(
                            "".join(f.value for f in fields),
                            value.raw,
                            all(f.known for f in fields),
                            glob=any(f.glob for f in fields),
                            quoted=any(f.quoted for f in fields),
                        ),
                    )
                )
        if not words:
            if redirects:
                self.script.redirect_only.append(Command((), redirects, assigns, st.cwd, st.home, via))
            if assigns:
                st = st.copy()
                for name, value in assigns:
                    self._assign(st, name, value)
            return st, st, None
        home = st.home
        for name, value in assigns:
            if name == "HOME":
                home = value.value if value is not None and value.exact else None
        cmd = Command(words, redirects, assigns, st.cwd, home, via)
        if piped is not None:
            cmd.stdin_text, cmd.stdin_from = piped
        return self.dispatch(cmd, st, via)

    def add(self, cmd: Command) -> bool:
        self.budget.commands -= 1
        if self.budget.commands < 0:
            self.budget.stop("too many commands")
            return False
        self.budget.spend(10)
        self.script.commands.append(cmd)
        return True

    def dispatch(self, cmd: Command, st: State, via: tuple):
        peeled = unwrap.peel(cmd.words)
        if peeled.names:
            cmd.words = tuple(peeled.words)
            cmd.wrappers = tuple(peeled.wrappers)
            cmd.via = via = via + tuple(peeled.names)
            cmd.assignments = cmd.assignments + tuple(peeled.assigns)
            cmd.extra_args = peeled.extra
            if peeled.chdir is not None:
                cmd.cwd = _resolve_dir(peeled.chdir, cmd.cwd)
        if peeled.script is not None:
            text, rest = peeled.script
            sub = st.copy()
            sub.cwd = cmd.cwd
            self.walk_text(text.value + "".join(" " + w.raw for w in rest), sub, via)
            if not text.known:
                cmd.opaque = (Opaque("shell script", "sh", text.value, False),)
                if cmd.words:
                    self.add(cmd)
            return st, st, cmd
        if not cmd.words:
            return st, st, None
        if not self.add(cmd):
            return st, st, cmd
        program = cmd.program
        first = cmd.words[0]
        if not first.known:
            return st, st, cmd
        if program in unwrap.SHELLS:
            self._shell(cmd, st, via, program)
            return st, st, cmd
        if program == "eval" and peeled.in_shell:
            args = cmd.words[1:]
            text = " ".join(w.value for w in args)
            if not all(w.known for w in args):
                cmd.opaque = (Opaque("shell script", "sh", text, False),)
            return self._result(self.walk_text(text, st, via + ("eval",)), cmd)
        if program in ("source", "."):
            if len(cmd.words) > 1:
                cmd.opaque = (Opaque("sourced file", "sh", cmd.words[1].value, cmd.words[1].known),)
            after = st.copy()
            after.cwd, after.wild, after.stack = None, True, None
            return after, after, cmd
        if program == "find":
            self._find(cmd, st, via)
            return st, st, cmd
        lang = unwrap.language(program)
        if lang is not None:
            self._interpreter(cmd, lang)
        if program in st.funcs and st.funcs[program]:
            after = st.copy()
            after.cwd = None
            return after, after, cmd
        if peeled.in_shell:
            return self._builtin(cmd, st)
        return st, st, cmd

    @staticmethod
    def _result(pair, cmd):
        return pair[0], pair[1], cmd

    def _stdin(self, cmd):
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

    def _shell(self, cmd, st, via, program):
        spec = unwrap.shell_script(cmd.words)
        sub = st.copy()
        if spec[0] == "c":
            script = spec[1]
            self.walk_text(script.value, sub, via + (program + " -c",))
            if not script.known:
                cmd.opaque = (Opaque("shell script", "sh", script.value, False),)
        elif spec[0] == "file":
            cmd.opaque = (Opaque("script file", "sh", spec[1].value, spec[1].known),)
        else:
            fed = self._stdin(cmd)
            if fed is None:
                if any(r.op in ("<", "<>") and r.fd in (None, 0) for r in cmd.redirects):
                    target = next(r.target for r in cmd.redirects if r.op in ("<", "<>") and r.fd in (None, 0))
                    cmd.opaque = (Opaque("script file", "sh", target.value, target.known),)
                else:
                    cmd.opaque = (Opaque("stdin script", "sh", None, False),)
                return
            text, known = fed
            if text:
                self.walk_text(text, sub, via + (program + " stdin",))
            if not known:
                cmd.opaque = (Opaque("stdin script", "sh", text or None, False),)

    def _interpreter(self, cmd, lang):
        code, reads_stdin = unwrap.inline_code(cmd.program, lang, cmd.words)
        found = [Opaque("inline code", lang, w.value, w.known) for w in code]
        if reads_stdin and lang not in ("sed", "gsed", "awk", "gawk", "mawk", "nawk", "jq"):
            fed = self._stdin(cmd)
            if fed is not None:
                found.append(Opaque("stdin code", lang, fed[0] or None, fed[1]))
        if found:
            cmd.opaque = tuple(found)

    def _find(self, cmd, st, via):
        _roots, actions, _deleting, _files = unwrap.find_parts(cmd.words)
        for action, inner in actions:
            if not inner:
                continue
            sub = Command(
                inner, (), (), cmd.cwd if action in ("-exec", "-ok") else None, cmd.home, via + ("find " + action,)
            )
            self.dispatch(sub, st.copy(), via + ("find " + action,))

    # ## builtins that change the shell ##

    def _assign(self, st: State, name: str, value) -> None:
        known = value is not None and value.known
        if name == "HOME":
            st.home = value.value if known and value.value else None
        st.env[name] = value.value if known and not value.glob else _UNKNOWN

    def _builtin(self, cmd, st):
        program = cmd.program
        args = cmd.words[1:]
        if program in ("cd", "pushd", "popd"):
            return self._cd(cmd, st, program, args)
        if program in _ASSIGNING:
            after = st.copy()
            for word in args:
                text = word.value
                if text.startswith("-"):
                    continue
                name, eq, val = text.partition("=")
                if unwrap._is_assignment(text):
                    self._assign(after, name, Word(val, known=word.known, glob=word.glob))
                elif name and program != "export":
                    after.env[name] = _UNKNOWN
            return after, after, cmd
        if program == "unset" or program in _READING:
            after = st.copy()
            for word in args:
                if not word.value.startswith("-"):
                    after.env[word.value] = _UNKNOWN
                    if word.value == "HOME":
                        after.home = None
            return after, after, cmd
        if program == "printf" and args and args[0].value == "-v" and len(args) > 1:
            after = st.copy()
            after.env[args[1].value] = _UNKNOWN
            return after, after, cmd
        if program == "dirs" and any(w.value == "-c" for w in args):
            after = st.copy()
            after.stack = []
            return after, after, cmd
        return st, st, cmd

    def _cd(self, cmd, st, program, args):
        operands = [
            w
            for w in args
            if not (w.known and w.value.startswith("-") and w.value != "-")
            or (program != "cd" and w.value[:1] in "+-" and w.value[1:].isdigit())
        ]
        ok = st.copy()
        target = None
        if program == "popd":
            if operands or ok.stack is None:
                ok.stack = None
                if operands:
                    return ok, ok, cmd
                ok.cwd = None
                return ok, ok, cmd
            if not ok.stack:
                return st, st, cmd  # popd on an empty stack fails, nothing moves
            target = ok.stack.pop(0)
            ok.oldpwd, ok.cwd = ok.cwd, target
            return ok, st if False else ok, cmd
        if not operands:
            if program == "pushd":
                if ok.stack:
                    target = ok.stack[0]
                    ok.stack[0] = ok.cwd
                    ok.oldpwd, ok.cwd = ok.cwd, target
                    return ok, ok, cmd
                ok.cwd, ok.stack = None, None
                return ok, ok, cmd
            target = cmd.home
        else:
            word = operands[0]
            if program == "pushd" and word.value[:1] in "+-" and word.value[1:].isdigit():
                ok.cwd, ok.stack = None, None
                return ok, ok, cmd
            if word.known and word.value == "-":
                target = None if st.oldpwd is _UNKNOWN else st.oldpwd
            else:
                target = _resolve_dir(word, st.cwd)
        if program == "pushd" and ok.stack is not None:
            ok.stack.insert(0, st.cwd)
        ok.oldpwd = st.cwd
        ok.cwd = target
        for key in ("PWD", "OLDPWD"):
            ok.env.pop(key, None)
        if target is not None and self.check_dirs and _isdir(target):
            return ok, ok, cmd
        if target is None:
            return ok, merge(ok, st), cmd
        return ok, st, cmd


def _resolve_dir(word: Word, cwd):
    if not word.exact or not word.value:
        return None
    value = word.value
    if value.startswith("/"):
        return normpath(value)
    if cwd is None:
        return None
    return normpath(cwd.rstrip("/") + "/" + value)


def _isdir(path: str) -> bool:
    import os

    try:
        return os.path.isdir(path) and os.access(path, os.X_OK)  # a cd into it can succeed
    except (OSError, ValueError):
        return False


def _stdout(cmd):
    """What ``echo``/``printf``/``cat <<EOF`` print, as (text, known), else None."""
    program = cmd.program
    args = cmd.words[1:]
    if program == "echo":
        while args and args[0].known and args[0].value in ("-n", "-e", "-E", "-ne", "-en"):
            args = args[1:]
        return " ".join(w.value for w in args) + "\n", all(w.known for w in args)
    if program == "printf" and args:
        fmt = args[0].value
        rest = [w.value for w in args[1:]]
        out = []
        i = 0
        known = all(w.known for w in args)
        while i < len(fmt):
            ch = fmt[i]
            if ch == "%" and i + 1 < len(fmt):
                if fmt[i + 1] == "s":
                    out.append(rest.pop(0) if rest else "")
                elif fmt[i + 1] == "%":
                    out.append("%")
                else:
                    known = False
                i += 2
            elif ch == "\\" and i + 1 < len(fmt):
                out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(fmt[i + 1], fmt[i + 1]))
                i += 2
            else:
                out.append(ch)
                i += 1
        return "".join(out), known
    if program == "cat" and len(cmd.words) == 1:
        for r in reversed(cmd.redirects):
            if r.feeds_stdin:
                return r.body, r.body_known
    return None
