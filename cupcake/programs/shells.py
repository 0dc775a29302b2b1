"""Shells: the script they run is a ``-c`` text (``runs``; the words after it are ``$0``, ``$1``…),
a file (``script``), or their standard input (``stdin code``). ``-n`` reads without running."""

from __future__ import annotations

from cupcake.programs.spec import POSIX, RUNS, SCRIPT, SHELL, STDIN_CODE, program


def _shell(r) -> None:
    r.drop(SCRIPT, RUNS, options=True)
    if r.has("-n", "--no-execute"):
        return
    for rc in r.values("--rcfile", "--init-file"):  # read first when the shell is interactive
        r.add(SCRIPT, rc, r.path[0] + " --rcfile")
    for code in r.values("--init-command"):  # fish runs it before the script or the session
        r.add(RUNS, code, r.path[0] + " --init-command")
    command = r.get("--command")
    if command is not None:
        r.add(RUNS, command, r.path[0] + " -c")
        return
    if r.has("-c"):
        if r.operands:
            r.add(RUNS, r.operands[0], r.path[0] + " -c", index=r.where[0])
        else:
            r.add(STDIN_CODE, None, r.path[0])
        return
    if r.operands and not r.has("-s") and not (r.operands[0].known and r.operands[0].value == "-"):
        r.add(SCRIPT, r.operands[0], r.path[0], index=r.where[0])
        return
    r.add(STDIN_CODE, None, r.path[0])


_SET_LETTERS = "a b e f h k m n p t u v x B C E H P T"
_FLAGS = " ".join(f"-{c} +{c}" for c in _SET_LETTERS.split())

SPECS = (
    program(
        "bash",
        SHELL,
        aliases=(
            "sh",
            "dash",
            "zsh",
            "ksh",
            "ksh93",
            "mksh",
            "lksh",
            "pdksh",
            "ash",
            "yash",
            "posh",
            "rbash",
            "oksh",
            "osh",
            "ysh",
            "bash5",
        ),
        options="-c -s -i -l,--login -r,--restricted -o=,+o= -O=,+O= --rcfile=,--init-file= --norc --noprofile "
        "--noediting --posix --debugger --dump-strings --dump-po-strings --pretty-print --verbose --version --help "
        "-D --wordexp -y " + _FLAGS,
        style=POSIX,
        operands="value args",
        language="sh",
        handler=_shell,
        examples=(
            "bash -c 'rm x' => runs rm x",
            "bash -lc 'rm x' => runs rm x",
            "sh -c -- 'rm x' a b => runs rm x",
            "bash build.sh a => script build.sh",
            "sh => stdin code",
            "bash -s -- a => stdin code",
            "bash -n x.sh => passes",
            "bash -eo pipefail -c 'x' => runs x",
        ),
    ),
    program(
        "fish",
        SHELL,
        options="-c,--command= -C,--init-command=:runs -i,--interactive -l,--login -n,--no-execute -p,--profile=:writes "
        "--profile-startup=:writes -d,--debug= -o,--debug-output=:writes -N,--no-config -P,--private -f,--features= "
        "-v,--version -h,--help",
        style=POSIX,
        operands="value args",
        language="sh",
        handler=_shell,
        examples=("fish -c 'rm x' => runs rm x", "fish -C 'rm x' => runs rm x; stdin code"),
    ),
    program(
        "csh",
        SHELL,
        aliases=("tcsh", "nu", "nushell", "xonsh", "elvish", "rc", "es"),
        options="-c -e -f -i -l -m -n -s -t -v -V -x -X -b -d -q",
        style=POSIX,
        operands="value args",
        language="sh",
        handler=_shell,
        examples=("tcsh -c 'rm x' => runs rm x",),
    ),
)
