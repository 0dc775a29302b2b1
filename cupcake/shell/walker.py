"""From the tree to the commands that run: execution order and the shell's state.

The walker follows bash's order of execution and carries a ``State`` (working directory, home,
previous directory, directory stack, variables, positional parameters, functions, shell options).
A state is "unknown" where the reader cannot know it: ``cd`` to a directory that may not exist,
to a variable, ``popd`` of an unknown stack. Each step returns the state after success and after
failure, so ``cd d && x`` runs ``x`` in ``d`` whatever ``d`` is, and ``( cd d )`` or a pipeline
element changes nothing outside. A simple command is handed to ``commands.run`` (unwrapping,
builtins, what it writes and reads, the code it runs). What lasts beyond one branch — the files
this command changes, the links it makes, the traps it sets — is kept on the walker.

Variables hold a str (known), a ``GlobValue`` (one of the names a pattern matches), ``UNKNOWN``
(a value the reader cannot see that the command did not build from data: an inherited variable,
an arithmetic result) or ``TAINTED`` (a value read from data: a file, a program's output, input —
where code can hide when bash evaluates it as arithmetic or as a name).
"""

from __future__ import annotations

from cupcake.shell.limits import MAX_DEPTH, MAX_LOOP_ITEMS
from cupcake.shell.model import Simple
from cupcake.shell.words import GlobValue, expand

UNKNOWN = object()
TAINTED = object()
UNSET = object()  # unset by the command (``unset x``): expands to nothing, and ``${x-y}`` gives y
_SHELL_VARIABLES = {"HOME", "PWD", "OLDPWD", "IFS", "PATH", "CDPATH"}


class State:
    __slots__ = ("cwd", "home", "oldpwd", "stack", "env", "wild", "funcs", "args", "options", "locals")

    def __init__(self, cwd, home, env):
        self.cwd = cwd
        self.home = home
        self.oldpwd = UNKNOWN
        self.stack: list | None = []
        self.env = env  # variables the script set: name -> str, GlobValue, UNKNOWN or TAINTED
        self.wild = False  # every variable unknown (after a `source` that could not be read)
        self.funcs: dict = {}  # name -> the function's body node (None: defined differently in two branches)
        self.args = None  # positional parameters: a list of values, or None (unknown)
        self.options: frozenset = frozenset()  # shell options in force: "physical", "xtrace", "nocaseglob"…
        self.locals: frozenset = frozenset()  # variables the running function made local

    def copy(self) -> State:
        st = State(self.cwd, self.home, dict(self.env))
        st.oldpwd = self.oldpwd
        st.stack = None if self.stack is None else list(self.stack)
        st.wild, st.funcs, st.args, st.options, st.locals = self.wild, self.funcs, self.args, self.options, self.locals
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
        st.oldpwd = UNKNOWN
    if a.stack != b.stack:
        st.stack = None
    for key in set(a.env) | set(b.env):
        va, vb = a.env.get(key, UNKNOWN), b.env.get(key, UNKNOWN)
        if va is not vb and va != vb:
            st.env[key] = TAINTED if TAINTED in (va, vb) else UNKNOWN
    st.wild = a.wild or b.wild
    if a.funcs is not b.funcs:
        st.funcs = {
            k: (a.funcs.get(k) if a.funcs.get(k) is b.funcs.get(k) else None) for k in set(a.funcs) | set(b.funcs)
        }
    if a.args != b.args:
        st.args = None
    st.options = a.options | b.options
    st.locals = a.locals | b.locals
    return st


class Ctx:
    """What ``words.expand`` needs: variable values, a way to run a substitution, arithmetic and
    parameter forms, assignment, and where to say what cannot be read."""

    __slots__ = ("walker", "st", "via", "budget")

    def __init__(self, walker, st, via):
        self.walker, self.st, self.via, self.budget = walker, st, via, walker.budget

    def lookup(self, name):
        return self.walker.lookup(self.st, name)

    def tainted(self, name) -> bool:
        return name is not None and self.walker.tainted(self.st, name)

    def unset(self, name) -> bool:
        """Whether the command unset ``name`` (so ``${name-word}`` gives the word)."""
        return self.st.env.get(name) is UNSET

    def args(self) -> list:
        """The positional parameters, all known (the caller checked ``$#`` is known)."""
        return list(self.st.args or ())

    def run(self, node, label):
        """Walk a substitution; what it prints: a GlobValue (``$(mktemp)``), True when it can only
        be a number or a path the reader made (clean), False when it comes from data (tainted)."""
        from cupcake.shell.printed import printed

        before = len(self.walker.script.commands)
        self.walker.walk_seq(node, self.st.copy(), self.via + (label,))
        commands = self.walker.script.commands
        last = commands[-1] if len(commands) > before else None
        return printed(last, self.st) if last is not None else True

    def param(self, part):
        from cupcake.shell.params import expand_param

        return expand_param(part, self)

    def arith(self, text, nodes_or_tainted, raw=None) -> None:
        """An arithmetic expression: ``$((…))`` source (``nodes`` its substitutions) or a text."""
        from cupcake.shell.arith import check

        if raw is None:  # ``$((…))``: the source, with its $(…) already walked
            raw = text
            text = text[3:-2] if text.startswith("$((") else text[2:-1]
            check(self.walker.spliced(self.st, text), self, False, raw)
            return
        check(text, self, bool(nodes_or_tainted), raw)

    def join(self, parts):
        """``parts`` expanded as one string: (text, known, tainted)."""
        fields = expand(parts, "", self, assignment=True)
        return "".join(f.value for f in fields), all(f.known for f in fields), any(f.tainted for f in fields)

    def assign(self, name, value, tainted: bool) -> None:
        st = self.st
        st.env = dict(st.env)
        st.env[name] = value if value is not None else (TAINTED if tainted else UNKNOWN)

    def code(self, text: str, raw: str):
        """``text`` expanded as a double-quoted word (its ``$(…)`` run); its value, or None."""
        from cupcake.shell.grammar import Parser

        parser = Parser("", self.budget)
        parts = parser.heredoc_parts(text)
        value, known, _tainted = self.join(parts)
        return value if known else None

    def unknown(self, what: str, how: str) -> None:
        self.walker.script.unknown(what, how)


class Walker:
    def __init__(self, script, base_env: dict, budget, check_dirs: bool = True, parts=None):
        self.script = script
        self.parts = parts  # the reader's other parts, reached through here (``cupcake.shell.Parts``)
        self.base_env = base_env
        self.budget = budget
        self.check_dirs = check_dirs
        self.depth = 0
        self.made: list = []  # (Write, itself, target): paths this command may have left a link at
        self.files: dict = {}  # path -> (text, known): files this command wrote, and what they hold
        self.traps: list = []  # (text Word, State): code to run when the shell exits

    def lookup(self, st: State, name: str):
        if name in st.env:
            value = st.env[name]
            if value is UNSET:
                return ""
            return None if value is UNKNOWN or value is TAINTED else value
        if name.isdigit() or name in ("@", "*"):
            return self._positional(st, name)
        if name == "#":
            args = st.args
            return str(len(args)) if args is not None and all(isinstance(a, str) for a in args) else None
        if st.wild:
            return None
        if name == "HOME":
            return st.home
        if name == "PWD":
            return st.cwd
        if name == "OLDPWD":
            return None if st.oldpwd is UNKNOWN else st.oldpwd
        if name == "IFS":
            return " \t\n"  # bash never takes IFS from its environment
        value = self.base_env.get(name)
        return value if isinstance(value, str) else None

    def _positional(self, st: State, name: str):
        if st.args is None:
            return None
        if name in ("@", "*"):
            return (
                " ".join(a for a in st.args if isinstance(a, str)) if all(isinstance(a, str) for a in st.args) else None
            )
        k = int(name)
        if k == 0:
            return None
        value = st.args[k - 1] if k - 1 < len(st.args) else ""
        return value if isinstance(value, str) else None

    def tainted(self, st: State, name: str) -> bool:
        if name in st.env:
            return st.env[name] is TAINTED
        if (name.isdigit() and name != "0") or name in ("@", "*"):
            return st.args is not None and any(a is TAINTED for a in st.args)
        return False

    def spliced(self, st: State, text: str) -> str:
        """``$x``/``${x}`` in an arithmetic source replaced by their values (unknown ones kept as a
        bare name, so the check sees whether they are tainted)."""
        if "$" not in text:
            return text
        out, i, n = [], 0, len(text)
        while i < n:
            ch = text[i]
            if ch == "$" and i + 1 < n and (text[i + 1] == "{" or text[i + 1].isalpha() or text[i + 1] == "_"):
                j = i + 1
                if text[j] == "{":
                    end = text.find("}", j)
                    end = n if end < 0 else end
                    name, i = text[j + 1 : end], end + 1
                else:
                    while j < n and (text[j].isalnum() or text[j] == "_"):
                        j += 1
                    name, i = text[i + 1 : j], j
                value = self.lookup(st, name) if name.isidentifier() else None
                out.append(value if isinstance(value, str) else f" {name} " if name.isidentifier() else " 0 ")
                continue
            out.append(ch)
            i += 1
        return "".join(out)

    def walk_text(self, text: str, st: State, via: tuple):
        """Read ``text`` as a script and walk it from ``st``: (ok, fail)."""
        if self.depth >= MAX_DEPTH or self.budget.stopped:
            self.budget.stop("nesting too deep")
            return st, st
        if not self.budget.spend(len(text)):
            return st, st
        from cupcake.shell.grammar import Parser

        self.depth += 1
        try:
            seq = Parser(text, self.budget, self.depth, self.script.syntax_errors).parse()
            return self.walk_seq(seq, st, via)
        finally:
            self.depth -= 1

    def finish(self, st: State) -> None:
        """The end of the script: the EXIT (and other) traps run, in the state they were set in or
        the one at the end."""
        traps, self.traps = self.traps, []
        for text, at in traps[:8]:
            self.walk_text(text, merge(at, st), ("trap",))

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
        from cupcake.shell.output import stdout  # a pipe's feed: not loaded for a single command

        feed = None
        previous = None
        for node in cmds:
            _ok, _fail, last = self.walk_node(node, st.copy(), via, (feed, previous))
            feed = stdout(last) if last is not None else None
            previous = last
        return st, st

    def walk_node(self, node, st, via, piped):
        """(ok state, fail state, last Command produced)."""
        if self.budget.stopped or node is None:
            return st, st, None
        if node.__class__ is Simple:
            return self.parts.simple(self, node, st, via, piped)
        before = len(self.script.commands)
        if node.redirs:
            self.parts.redirections(self, node.redirs, st, via)
        ok, fail = _COMPOUND.get(node.kind, _nothing)(self, node, st, via)
        commands = self.script.commands
        return ok, fail, commands[-1] if len(commands) > before else None

    # ## compound commands ##

    def _subshell(self, node, st, via):
        self.walk_seq(node.a, st.copy(), via)
        return st, st

    def _group(self, node, st, via):
        return self.walk_seq(node.a, st, via)

    def _if(self, node, st, via):
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
        return ok, fail

    def _loop(self, node, st, via):
        # Twice when the first pass changes the state (a variable, the directory): the second pass
        # sees what a later iteration sees. Commands the second pass repeats exactly are dropped.
        result = st
        starts: list[int] = []
        for n in range(2):
            starts.append(len(self.script.commands))
            c_ok, c_fail = self.walk_seq(node.a, result, via)
            b_ok, b_fail = self.walk_seq(node.b, c_ok if node.kind == "while" else c_fail, via)
            after = merge(merge(result, c_fail), merge(b_ok, b_fail))
            if n:
                self._dedupe(starts[0], starts[1])
            if _same(after, result):
                break
            result = after
        return result, result

    def _dedupe(self, first: int, second: int) -> None:
        commands = self.script.commands
        seen = {(c.argv, c.cwd, c.via) for c in commands[first:second]}
        commands[second:] = [c for c in commands[second:] if (c.argv, c.cwd, c.via) not in seen]

    def _case(self, node, st, via):
        ctx = Ctx(self, st, via)
        if node.a is not None:
            expand(node.a.parts, node.a.raw, ctx)
        ok = fail = st
        for patterns, body in node.b:
            for pattern in patterns:
                expand(pattern.parts, pattern.raw, ctx)
            r_ok, r_fail = self.walk_seq(body, st, via)
            ok, fail = merge(ok, r_ok), merge(fail, r_fail)
        return ok, fail

    def _func(self, node, st, via):
        name = node.a or ""
        self.script.functions.append(name)
        after = st.copy()
        after.funcs = dict(st.funcs)
        after.funcs[name] = node.b
        if name == "command_not_found_handle":  # bash calls it for any program it cannot find
            inner = after.copy()
            inner.args = None
            self.walk_node(node.b, inner, via + (f"function {name}",), None)
        return after, after

    def _coproc(self, node, st, via):
        self.walk_node(node.b, st.copy(), via + ("coproc",), None)
        return st, st

    def _arith(self, node, st, via):
        for sub in node.b:
            self.walk_seq(sub, st.copy(), via + ("$(…)",))
        ctx = Ctx(self, st, via)
        ctx.arith("$(" + node.a + ")" if not node.a.startswith("$") else node.a, node.b)
        return st, st

    def _for(self, node, st, via):
        if node.a is None:  # for ((…))
            for sub in node.b or ():
                self.walk_seq(sub, st.copy(), via + ("$(…)",))
            return self._loop_over(node, st, via, None)
        ctx = Ctx(self, st, via)
        items = None
        if node.b is not None:
            items = []
            for word in node.b:
                items.extend(expand(word.parts, word.raw, ctx))
        elif st.args is not None:
            items = list(st.args)
        return self._loop_over(node, st, via, items)

    def _loop_over(self, node, st, via, items):
        name = node.a
        known = items is not None and len(items) <= MAX_LOOP_ITEMS and all(getattr(w, "known", False) for w in items)
        if known and name in _SHELL_VARIABLES and not all(w.exact for w in items):
            known = False  # $HOME, $PWD… are read as text elsewhere: a pattern there is unknown
        result = st
        if name is None:
            start = len(self.script.commands)
            ok, fail = self.walk_seq(node.c, st, via)
            again = merge(st, merge(ok, fail))
            if not _same(again, st):
                second = len(self.script.commands)
                ok, fail = self.walk_seq(node.c, again, via)
                self._dedupe(start, second)
            return merge(st, ok), merge(st, fail)
        if known and items:
            for word in items:
                inner = st.copy()
                # a glob item: the variable holds one of the names it matches, kept as the pattern
                inner.env[name] = word.value if word.exact else GlobValue(word.value, word.pattern())
                r_ok, r_fail = self.walk_seq(node.c, inner, via)
                result = merge(result, merge(r_ok, r_fail))
        else:
            inner = st.copy()
            tainted = any(getattr(w, "tainted", False) or w is TAINTED for w in items or ())
            inner.env[name] = TAINTED if tainted else UNKNOWN
            starts: list[int] = []
            for n in range(2):
                starts.append(len(self.script.commands))
                r_ok, r_fail = self.walk_seq(node.c, inner, via)
                after = merge(inner, merge(r_ok, r_fail))
                if n:
                    self._dedupe(starts[0], starts[1])
                if _same(after, inner):
                    break
                inner = after
            result = merge(result, inner)
        return result, result


def _same(a: State, b: State) -> bool:
    return a.cwd == b.cwd and a.env == b.env and a.oldpwd == b.oldpwd and a.stack == b.stack and a.funcs is b.funcs


def _nothing(walker, node, st, via):
    return st, st


_COMPOUND = {
    "subshell": Walker._subshell,
    "group": Walker._group,
    "if": Walker._if,
    "while": Walker._loop,
    "until": Walker._loop,
    "for": Walker._for,
    "case": Walker._case,
    "func": Walker._func,
    "coproc": Walker._coproc,
    "arith": Walker._arith,
}
