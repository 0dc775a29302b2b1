"""Cupcake's Bash reader: what a command line would run, in which directory, and what it writes.

``parse(command, cwd=None, home=None, env=None) -> Script`` never raises. See ``model`` for the
classes callers use (``Script``, ``Command``, ``Redirect``, ``Opaque``, ``Write``), ``words`` for
``Word`` and ``could_match``. ``targets(command, cwd, home, root)`` is the write list in the shape
of the older ``cupcake.protection.shell_targets.targets``. Modules: ``lexer`` (characters to words),
``grammar`` (the tree; a line of plain words is read without both: ``model.plain``), ``words`` (expansion, patterns) and ``braces``, ``params`` (``${…}`` forms),
``walker`` (execution order, state), ``commands`` (one simple command: wrappers, what the program
does, read with the registry of programs ``cupcake.programs``) with ``variables`` (assignments) and
``runs`` (a function's body, the code a command runs), ``builtins`` and ``state_builtins`` (what
builtins do to the shell), ``arith`` (arithmetic is code), ``scripts`` (script files), ``output`` and
``printed`` (what commands print), ``paths`` (paths as the kernel sees them), ``limits`` (bounds).
What few lines need is in modules loaded when a line needs them.
"""

from __future__ import annotations

from cupcake.shell.limits import MAX_INPUT, Budget
from cupcake.shell.model import Command, Opaque, Read, Redirect, Script, Unknown, Write
from cupcake.shell.words import Word, could_match

__all__ = [
    "known_env",
    "parse",
    "targets",
    "Script",
    "Command",
    "Redirect",
    "Opaque",
    "Write",
    "Read",
    "Unknown",
    "Word",
    "could_match",
]


def parse(command, cwd=None, home=None, env=None, check_dirs: bool = True) -> Script:
    """Read ``command`` as bash would. ``cwd``/``home``: absolute directories, or None when
    unknown; ``env``: variables whose values the caller knows (e.g. the agent's project directory); any
    other variable is unknown. ``check_dirs``: whether a ``cd`` to an existing directory may be
    taken to succeed (else the directory after a ``cd`` that might fail is unknown)."""
    if not isinstance(command, str):
        command = "" if command is None else str(command)
    script = Script(command)
    budget = Budget()
    text = command
    too_long = len(text) > MAX_INPUT
    if too_long:
        text = text[:MAX_INPUT]  # the start is still read, for what it shows
    try:
        from cupcake.shell.model import plain
        from cupcake.shell.walker import State, Walker, merge

        seq = plain(text, budget)  # a line of plain words: the same tree, without the lexer and the grammar
        if seq is None:
            from cupcake.shell.grammar import Parser

            seq = Parser(text, budget, 0, script.syntax_errors).parse()
        base = {k: v for k, v in (env or {}).items() if isinstance(k, str) and isinstance(v, str)}
        if home is None and isinstance(base.get("HOME"), str):
            home = base["HOME"]
        state = State(
            cwd if isinstance(cwd, str) and cwd.startswith("/") else None,
            home if isinstance(home, str) and home.startswith("/") else None,
            {},
        )
        reason = budget.reason
        budget.reason = None  # the walk may still read what was parsed
        walker = Walker(script, base, budget, check_dirs, Parts)
        ok, fail = walker.walk_seq(seq, state, ())
        walker.finish(merge(ok, fail))
        budget.reason = reason or budget.reason
    except RecursionError:
        budget.stop("nesting too deep")
    except MemoryError:
        budget.stop("out of memory")
    except Exception as exc:  # never raise on any input: a reading we could not finish is incomplete
        budget.stop(f"internal error: {exc.__class__.__name__}")
    script.incomplete = "too long to read" if too_long else budget.reason
    return script


class Parts:
    """The reader's parts that call one another (a simple command runs a script, which holds simple
    commands; a builtin sources a file…), reached through the walker and wired here, at the top, so
    no module imports one that imports it back. Each is imported when first needed."""

    @staticmethod
    def simple(w, node, st, via, piped):
        from cupcake.shell.commands import simple

        return simple(w, node, st, via, piped)

    @staticmethod
    def redirections(w, redirs, st, via):
        from cupcake.shell.commands import redirections

        return redirections(w, redirs, st, via)

    @staticmethod
    def effects(w, cmd, reading, st, via, wrapper: bool = False):
        from cupcake.shell.commands import effects

        return effects(w, cmd, reading, st, via, wrapper=wrapper)

    @staticmethod
    def effect(w, cmd, effect, st, via):
        """One effect of a program, as if its reading had it (``sed``'s ``w`` and ``e`` in a script file)."""
        from cupcake.shell.commands import apply_effect

        return apply_effect(w, cmd, effect, st, via)

    @staticmethod
    def code_effect(w, cmd, effect, st, via):
        """An effect that runs code (a shell text, a script, inline code, a setting that runs a program)."""
        from cupcake.shell.runs import code_effect

        return code_effect(w, cmd, effect, st, via)

    @staticmethod
    def shell(w, cmd, reading, st, via):
        from cupcake.shell.runs import shell

        return shell(w, cmd, reading, st, via)

    @staticmethod
    def call(w, cmd, st, via, name, env):
        """A function defined on the line, called."""
        from cupcake.shell.runs import call

        return call(w, cmd, st, via, name, env)

    @staticmethod
    def stdin_code(w, cmd, effect, st, via):
        from cupcake.shell.runs import stdin_code

        return stdin_code(w, cmd, effect, st, via)

    @staticmethod
    def run_script(w, cmd, word, st, via, args):
        from cupcake.shell.runs import run_script

        return run_script(w, cmd, word, st, via, args)

    @staticmethod
    def run_builtin(w, cmd, reading, st, via):
        from cupcake.shell.builtins import run_builtin

        return run_builtin(w, cmd, reading, st, via)

    @staticmethod
    def other_script(w, cmd, effect, st, via):
        from cupcake.shell.scripts import other_script

        return other_script(w, cmd, effect, st, via)

    @staticmethod
    def later(w, cmd, effect, st, via):
        from cupcake.shell.scripts import later

        return later(w, cmd, effect, st, via)

    @staticmethod
    def script_text(w, cmd, word):
        from cupcake.shell.scripts import script_text

        return script_text(w, cmd, word)


def known_env(project_dir_names, root, environ) -> dict:
    """What the agent's shell is known to hold: its project-directory variables (the root), and,
    from the agent's environment as the hook sees it, the temporary directory (where ``mktemp``
    makes a new file) and the search paths. Every other variable it does not set is unknown: the
    shell may hold what the hook's environment does not (its rc files), so unset is never assumed."""
    known = dict.fromkeys(project_dir_names, root) if root else {}
    environ = environ or {}
    for name in ("TMPDIR", "PATH", "CDPATH"):
        value = environ.get(name)
        if isinstance(value, str) and value:
            known[name] = value
    return known


def targets(command, cwd, home, root, root_names=()) -> list:
    """Every ``Write`` of ``command`` (the older reader's entry point). ``root_names``: the variables
    that hold the project root (the agent's project-directory variables, from its adapter). Unlike the
    older reader, unresolved targets are included (``path`` None, ``could_be`` still answers) and an
    incomplete reading adds one ``Write`` of kind ``"incomplete"`` whose ``could_be`` is always True."""
    env = dict.fromkeys(root_names, root) if root else {}
    script = parse(command, cwd, home or None, env)
    out = list(script.writes)
    if script.incomplete:
        out.append(Write("incomplete", Word("…", "…", known=False, tokens=[3]), None, recursive=True))
    return out
