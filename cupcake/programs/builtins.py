"""Bash builtins: their options and what their words are. What each does to the shell (the
directory, variables, traps, functions) is the walker's (``cupcake.shell.builtins``); this family
says how their arguments read, for the walker and for rules alike."""

from __future__ import annotations

from cupcake.programs.spec import BUILTIN, POSIX, READS, RUNS, WRAPPER, WRITES, program
from cupcake.shell.words import ANY, Word


def _trap(r) -> None:
    """``trap ACTION SIGNAL...`` runs ACTION later; ``trap - SIG``, ``trap '' SIG``, ``trap SIG``
    (a number alone resets it) and ``trap -p``/``-l`` run nothing."""
    ops = r.operands
    if not ops or r.has("-l", "-p", "-P"):
        r.drop(RUNS)
        return
    first = ops[0]
    if first.known and (first.value in ("-", "") or (len(ops) == 1 and first.value.isdigit())):
        r.drop(RUNS)


def _history(r) -> None:
    """``history -w``/``-a FILE`` write the history file (none named: ``$HISTFILE``, which the agent
    may have set), ``-r``/``-n FILE`` read one into the history (``history`` then prints it)."""
    target = r.operands[0] if r.operands else Word("…", known=False, tokens=[ANY])
    if r.has("-w", "-a"):
        r.add(WRITES, target, "history -w")
    elif r.has("-r", "-n"):
        r.add(READS, target, "history -r")


def _command(r) -> None:
    """``command -v x``/``-V`` looks ``x`` up; it does not run it."""
    if r.has("-v", "-V"):
        r.inner = None


_DECLARE = "-a -A -f -F -g -i -I -l -n -r -t -u -x -p +a +A +f +F +g +i +I +l +n +r +t +u +x"

# The builtins the Bash reader models itself (``cupcake.shell.builtins.HANDLERS``: where the shell
# runs, variables, code in data, scripts): never in the quick pass, whatever their words.
MODELLED = frozenset(
    ("cd", "pushd", "popd", "dirs", "source", ".", "eval", "trap", "mapfile", "readarray", "read", "getopts")
    + ("printf", "declare", "typeset", "local", "export", "readonly", "unset", "set", "shopt", "alias", "hash")
    + ("enable", "fc", "test", "[", "[[", "let", "shift")
)

SPECS = (
    program(
        "cd",
        BUILTIN,
        options="-L -P -e -@",
        operands="chdir",
        style=POSIX,
        examples=("cd /tmp => chdir /tmp", "cd -P -- link => chdir link"),
    ),
    program("pushd", BUILTIN, options="-n", operands="chdir", numeric=True, examples=("pushd -n /tmp => chdir /tmp",)),
    program("popd", BUILTIN, options="-n", numeric=True, examples=("popd => passes",)),
    program("dirs", BUILTIN, options="-c -l -p -v", numeric=True, examples=("dirs -v => passes",)),
    program(
        "source",
        BUILTIN,
        aliases=(".",),
        operands="script args",
        style=POSIX,
        examples=("source .venv/bin/activate => script .venv/bin/activate", ". ./env.sh a b => script ./env.sh"),
    ),
    program(
        "eval",
        BUILTIN,
        operands="runs...",
        style=POSIX,
        language="sh",
        examples=("eval 'rm x' => runs rm x",),
    ),
    program(
        "exec",
        WRAPPER,
        options="-a= -c -l",
        operands="command",
        style=POSIX,
        examples=("exec -a name rm x => deletes x",),
    ),
    program(
        "command",
        WRAPPER,
        options="-p -v -V",
        operands="command",
        style=POSIX,
        handler=_command,
        examples=("command rm x => deletes x", "command -v rm => passes"),
    ),
    program("builtin", WRAPPER, operands="command", style=POSIX, examples=("builtin cd /tmp => chdir /tmp",)),
    program(
        "trap",
        BUILTIN,
        options="-l -p -P",
        operands="runs value...",
        style=POSIX,
        language="sh",
        handler=_trap,
        examples=('trap \'rm -f "$tmp"\' EXIT => runs rm -f "$tmp"', "trap - EXIT => passes", "trap -p => passes"),
    ),
    program(
        "read",
        BUILTIN,
        options="-a= -d= -e -i= -n= -N= -p= -r -s -t= -u=",
        operands="value...",
        examples=("read -r -p 'Name? ' name => passes",),
    ),
    program(
        "mapfile",
        BUILTIN,
        aliases=("readarray",),
        options="-d= -n= -O= -s= -t -u= -C=:runs -c=",
        operands="value",
        language="sh",
        examples=("mapfile -t lines => passes", "mapfile -C 'rm x #' -c 1 a => runs rm x #"),
    ),
    program(
        "declare",
        BUILTIN,
        aliases=("typeset", "local"),
        options=_DECLARE,
        operands="value...",
        examples=("declare -a a => passes",),
    ),
    program("export", BUILTIN, options="-f -n -p", operands="value...", examples=("export A=1 => passes",)),
    program("readonly", BUILTIN, options="-a -A -f -p", operands="value...", examples=("readonly A=1 => passes",)),
    program("unset", BUILTIN, options="-f -v -n", operands="value...", examples=("unset -v a => passes",)),
    program(
        "set",
        BUILTIN,
        options="-o=,+o= -a -b -e -f -h -k -m -n -p -t -u -v -x -B -C -E -H -P -T "
        "+a +b +e +f +h +k +m +n +p +t +u +v +x +B +C +E +H +P +T",
        operands="value...",
        style=POSIX,
        examples=("set -euo pipefail => passes", "set -- a b => passes"),
    ),
    program("shopt", BUILTIN, options="-s -u -p -q -o", operands="value...", examples=("shopt -s nullglob => passes",)),
    program("alias", BUILTIN, options="-p", operands="value...", examples=("alias ll='ls -l' => passes",)),
    program("unalias", BUILTIN, options="-a", operands="value...", examples=("unalias ll => passes",)),
    program("hash", BUILTIN, options="-p= -d -l -r -t", operands="value...", examples=("hash -r => passes",)),
    program(
        "enable", BUILTIN, options="-a -d -f=:script -n -p -s", operands="value...", examples=("enable -p => passes",)
    ),
    program(
        "printf", BUILTIN, options="-v=", operands="value...", style=POSIX, examples=("printf '%s\\n' a => passes",)
    ),
    program("echo", BUILTIN, options="-n -e -E", operands="value...", style=POSIX, examples=("echo -n hi => passes",)),
    program("test", BUILTIN, aliases=("[", "[["), operands="value...", style=POSIX, examples=("test -f x => passes",)),
    program("let", BUILTIN, operands="value...", style=POSIX, examples=("let i=i+1 => passes",)),
    program(
        "compgen",
        BUILTIN,
        options="-a -b -c -d -e -f -g -j -k -s -u -v -o= -A= -G= -W= -F= -C=:runs -X= -P= -S= -V=",
        operands="value...",
        language="sh",
        examples=("compgen -C 'rm x' w => runs rm x", "compgen -c => passes"),
    ),
    program(
        "complete",
        BUILTIN,
        options="-a -b -c -d -e -f -g -j -k -s -u -v -p -r -D -E -I -o= -A= -G= -W= -F= -C= -X= -P= -S=",
        operands="value...",
        examples=("complete -F _f git => passes",),
    ),
    program("fc", BUILTIN, options="-e= -l -n -r -s", operands="value...", examples=("fc -l => passes",)),
    program(
        "history",
        BUILTIN,
        options="-c -d= -a -n -r -w -p -s",
        operands="value...",
        handler=_history,
        examples=(
            "history -c => passes",
            "history -w f => writes f",
            "history -r f => reads f",
            "history -a => writes …",
        ),
    ),
    program(
        "bind",
        BUILTIN,
        options="-m= -l -p -P -s -S -v -V -X -q= -u= -r= -f=:script -x=",
        operands="value...",
        examples=("bind -l => passes",),
    ),
    program("getopts", BUILTIN, operands="value...", style=POSIX, examples=("getopts ab: opt => passes",)),
    program("type", BUILTIN, options="-a -f -p -P -t", operands="value...", examples=("type -a ls => passes",)),
    program("wait", BUILTIN, options="-f -n -p=", operands="value...", examples=("wait => passes",)),
    program(
        "kill",
        BUILTIN,
        options="-s= -n= -l -L",
        operands="value...",
        numeric=True,
        examples=("kill -9 1234 => passes",),
    ),
    program(
        "ulimit",
        BUILTIN,
        options="-S -H -a -b -c -d -e -f -i -k -l -m -n -p -q -r -s -t -u -v -x -P -R -T",
        operands="value",
        examples=("ulimit -n 1024 => passes",),
    ),
    program("umask", BUILTIN, options="-p -S", operands="value", examples=("umask 022 => passes",)),
    program("shift", BUILTIN, operands="value", examples=("shift 2 => passes",)),
    program("exit", BUILTIN, operands="value", aliases=("return", "logout"), examples=("exit 1 => passes",)),
    program("break", BUILTIN, operands="value", aliases=("continue",), examples=("break 2 => passes",)),
    program(
        "true",
        BUILTIN,
        aliases=(":", "false", "times", "caller", "jobs", "fg", "bg", "disown", "suspend", "help"),
        operands="value...",
        style=POSIX,
        examples=("true => passes", ": ${X:=1} => passes"),
    ),
)
