"""Wrappers: programs that run another command given in their arguments (``inner``), sometimes in
another directory (``chdir``), with variables set (``env``), with further arguments the reader
cannot see (``extra``: xargs), through a shell (``runs``: ``flock -c``, ``watch``, ``sg``), or
where paths name other files (``remap``: chroot, bwrap, proot)."""

from __future__ import annotations

from cupcake.programs.reading import literal_prefix
from cupcake.programs.spec import POSIX, RUNS, STDIN_CODE, WRAPPER, WRITES, program
from cupcake.shell.words import ANY, Word


def _is_assignment(text: str) -> bool:
    name, eq, _ = text.partition("=")
    return bool(eq and name) and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name)


def _env(r) -> None:
    """``env [-C DIR] [-u NAME] [NAME=VALUE]... [COMMAND...]``; ``-S STRING`` splits a string."""
    inner = list(r.inner or ())
    while inner and inner[0].known and "=" in inner[0].value[1:]:  # env takes any NAME=VALUE
        name, _eq, value = inner[0].value.partition("=")
        word = inner.pop(0)
        r.env.append((name, Word(value, word.raw, word.known, word.glob, word.quoted)))
    while inner and not inner[0].known and "=" in literal_prefix(inner[0]):  # X=$(…): still an assignment
        word = inner.pop(0)
        r.env.append((literal_prefix(word).split("=", 1)[0], Word(word.value, known=False, tokens=[ANY])))
    split = r.get("-S", "--split-string")
    if split is not None:
        rest = " ".join(w.raw if w.raw else w.value for w in inner)
        r.add(
            RUNS,
            Word(split.value + (" " + rest if rest else ""), known=split.known and all(w.known for w in inner)),
            "env -S",
        )
        r.inner = None
        return
    r.inner = inner or None


def _su(r) -> None:
    """``runuser -u USER [--] COMMAND...``: with -u the operands are the command; else ``su USER``
    reads a script on standard input unless ``-c`` gives one."""
    if r.has("-u", "--user") and r.operands:
        r.inner = list(r.operands)
    elif not r.has("-c", "--command", "--session-command"):
        r.add(STDIN_CODE, None, r.path[0]).language = "sh"


def _sudo(r) -> None:
    if r.has("-e", "--edit"):
        for word in r.inner or ():
            r.add(WRITES, word, "sudoedit")
        r.inner = None
        return
    if r.has("-l", "--list", "-v", "--validate", "-k", "-K", "--reset-timestamp", "--remove-timestamp", "-V"):
        r.inner = None if not r.inner else r.inner
    if r.has("-i", "--login") and r.inner is None:
        r.add(STDIN_CODE, None, "sudo -i").language = "sh"
    if r.has("-s", "--shell") and r.inner is None:
        r.add(STDIN_CODE, None, "sudo -s").language = "sh"
    if r.has("-R", "--chroot"):
        r.remap = True


def _flock(r) -> None:
    """``flock FILE COMMAND...`` or ``flock FILE -c 'COMMAND'`` (the ``-c`` may follow the file)."""
    inner = list(r.inner or ())
    if inner and inner[0].known and inner[0].value in ("-c", "--command") and len(inner) > 1:
        r.add(RUNS, inner[1], "flock -c")
        r.inner = None
    command = r.get("-c", "--command")
    if command is not None:
        r.inner = None


def _runs_joined(what: str, unless: tuple = ()):
    """The words of the command are joined and run by a shell (``watch 'cmd'``, ``sg grp cmd``)."""

    def handler(r) -> None:
        if unless and r.has(*unless):
            return
        inner = list(r.inner or ())
        if inner and inner[0].known and inner[0].value == "-c":  # sg GROUP -c COMMAND
            inner = inner[1:]
        if inner:
            r.add(RUNS, Word(" ".join(w.value for w in inner), known=all(w.known for w in inner)), what)
            r.inner = None

    return handler


def _xargs(r) -> None:
    """Items from the input are appended (or put where ``-I R`` says): the command gets arguments
    the reader cannot see."""
    replace = r.get("-I", "--replace") or r.get("-i")
    if replace is None and r.has("-i", "--replace"):
        replace = Word("{}")
    inner = list(r.inner or [Word("echo")])
    if replace is not None:
        inner = [_replaced(w, replace.value) for w in inner]
    else:
        r.extra = True
    r.inner = inner


def _replaced(word, token: str):
    """``{}`` (or the ``-I`` string) inside a word stands for an input item the reader cannot see."""
    if not token or token not in word.value:
        return word
    tokens: list = []
    for k, piece in enumerate(word.value.split(token)):
        if k:
            tokens.append(ANY)
        tokens.extend(piece)
    return Word(word.value, word.raw, False, word.glob, word.quoted, tokens)


def _parallel(r) -> None:
    """``parallel CMD ::: ARG...``: each argument replaces ``{}`` (or is appended), and the line runs in a shell."""
    inner = list(r.inner or ())
    cut = next((k for k, w in enumerate(inner) if w.known and w.value in (":::", "::::", ":::+", "::::+")), None)
    args = inner[cut + 1 :] if cut is not None else []
    command = inner[:cut] if cut is not None else inner
    r.inner = None
    text = " ".join(w.value for w in command) or "…"
    known = (
        all(w.known for w in command) and cut is not None and inner[cut].value == ":::" and all(w.known for w in args)
    )
    if known and len(args) <= 16 and not any(w.value in (":::", "::::", ":::+") for w in args):
        for arg in args:
            line = text.replace("{}", arg.value) if "{}" in text else text + " " + arg.value
            r.add(RUNS, Word(line), "parallel")
        return
    r.add(RUNS, Word(text + " …", known=False, tokens=[ANY]), "parallel")


def _remap(r) -> None:
    r.remap = True


def _capsh(r) -> None:
    """``capsh … -- ARGS``: ARGS go to /bin/bash."""
    words = r.words
    cut = next((k for k, w in enumerate(words) if w.known and w.value == "--"), None)
    if cut is not None:
        r.inner = [Word("bash"), *words[cut + 1 :]]


def _tmux(r) -> None:
    """tmux runs shell commands given to new-session/new-window/split-window/respawn-*/run-shell/
    if-shell/display-popup, and types ``send-keys`` text into a shell."""
    ops = r.operands
    if not ops:
        return
    sub = ops[0].value
    rest = list(ops[1:])
    if sub in ("send-keys", "send", "send-prefix"):
        keys, skip = [], False
        for word in rest:
            if skip:
                skip = False
            elif word.known and word.value in ("-t", "-N", "-c", "-T"):
                skip = True
            elif not (word.known and (word.value.startswith("-") or word.value in ("Enter", "C-m", "KPEnter"))):
                keys.append(word)
        if keys:
            r.add(RUNS, Word(" ".join(w.value for w in keys), known=all(w.known for w in keys)), "tmux send-keys")
    elif sub in (
        "new-session",
        "new",
        "new-window",
        "neww",
        "split-window",
        "splitw",
        "respawn-pane",
        "respawnp",
        "respawn-window",
        "respawnw",
        "run-shell",
        "run",
        "if-shell",
        "if",
        "display-popup",
        "popup",
        "pipe-pane",
        "pipep",
    ):
        plain = [w for w in rest if not (w.known and w.value.startswith("-"))]
        if plain:
            r.add(RUNS, Word(" ".join(w.value for w in plain), known=all(w.known for w in plain)), "tmux " + sub)


def _screen(r) -> None:
    words = r.words
    for k, word in enumerate(words):
        if word.known and word.value == "stuff" and k + 1 < len(words):
            r.add(RUNS, words[k + 1], "screen -X stuff")
            r.inner = None
            return


def _entr(r) -> None:
    if r.has("-s") and r.inner:
        r.add(RUNS, r.inner[0], "entr -s")
        r.inner = None


_SUDO = (
    "-u,--user= -g,--group= -C,--close-from= -D,--chdir=:chdir -h,--host= -p,--prompt= -r,--role= -t,--type= "
    "-T,--command-timeout= -U,--other-user= -R,--chroot= -E,--preserve-env=? -H,--set-home -i,--login -s,--shell "
    "-e,--edit -l,--list -n,--non-interactive -k,--reset-timestamp -K,--remove-timestamp -v,--validate -V,--version "
    "-b,--background -A,--askpass -S,--stdin -B,--bell -P,--preserve-groups -N,--no-update"
)

SPECS = (
    program(
        "sudo",
        WRAPPER,
        options=_SUDO,
        style=POSIX,
        operands="command",
        handler=_sudo,
        examples=("sudo rm x => deletes x", "sudo -e f => writes f", "sudo -D /tmp ls => passes"),
    ),
    program(
        "doas",
        WRAPPER,
        options="-u= -C=:script -n -s -L",
        style=POSIX,
        operands="command",
        examples=("doas rm x => deletes x",),
    ),
    program(
        "run0",
        WRAPPER,
        options="-u,--user= -g,--group= -D,--chdir=:chdir --setenv= --unit= --property= --description= --nice= --background= --machine= --slice= --via-shell",
        style=POSIX,
        operands="command",
        examples=("run0 rm x => deletes x",),
    ),
    program(
        "env",
        WRAPPER,
        options="-i,--ignore-environment -0,--null -u,--unset= -C,--chdir=:chdir -S,--split-string= -v,--debug "
        "--block-signal=? --default-signal=? --ignore-signal=? --list-signal-handling -a,--argv0= -",
        style=POSIX,
        operands="command",
        handler=_env,
        language="sh",
        examples=("env X=1 rm x => deletes x", "env -C /tmp rm x => deletes x", "env -S 'rm x' => runs rm x"),
    ),
    program("nohup", WRAPPER, style=POSIX, operands="command", examples=("nohup rm x => deletes x",)),
    program(
        "setsid",
        WRAPPER,
        options="-c,--ctty -f,--fork -w,--wait",
        style=POSIX,
        operands="command",
        examples=("setsid rm x => deletes x",),
    ),
    program(
        "nice",
        WRAPPER,
        options="-n,--adjustment=",
        style=POSIX,
        numeric=True,
        operands="command",
        examples=("nice -n 5 rm x => deletes x", "nice -5 rm x => deletes x"),
    ),
    program(
        "ionice",
        WRAPPER,
        options="-c,--class= -n,--classdata= -p,--pid= -P,--pgid= -t,--ignore -u,--uid=",
        style=POSIX,
        operands="command",
        examples=("ionice -c3 rm x => deletes x",),
    ),
    program(
        "chrt",
        WRAPPER,
        options="-a,--all-tasks -m,--max -p,--pid -R,--reset-on-fork -v,--verbose -b,--batch -d,--deadline -f,--fifo -i,--idle -o,--other -r,--rr -T,--sched-runtime= -P,--sched-period= -D,--sched-deadline=",
        style=POSIX,
        operands="value command",
        examples=("chrt -f 10 rm x => deletes x",),
    ),
    program(
        "taskset",
        WRAPPER,
        options="-a,--all-tasks -c,--cpu-list -p,--pid",
        style=POSIX,
        operands="value command",
        examples=("taskset -c 0 rm x => deletes x",),
    ),
    program(
        "numactl",
        WRAPPER,
        options="-a,--all -b,--balancing -C,--physcpubind= -m,--membind= -N,--cpunodebind= -p,--preferred= -P,--preferred-many= -i,--interleave= -l,--localalloc -s,--show -H,--hardware -S,--shm= -w,--weighted-interleave=",
        style=POSIX,
        operands="command",
        examples=("numactl -N 0 rm x => deletes x",),
    ),
    program(
        "stdbuf",
        WRAPPER,
        options="-i,--input= -o,--output= -e,--error=",
        style=POSIX,
        operands="command",
        examples=("stdbuf -oL rm x => deletes x",),
    ),
    program(
        "timeout",
        WRAPPER,
        aliases=("gtimeout",),
        options="-k,--kill-after= -s,--signal= --preserve-status --foreground -v,--verbose",
        style=POSIX,
        operands="value command",
        examples=("timeout 5 rm x => deletes x", "timeout -s KILL 5s rm x => deletes x"),
    ),
    program(
        "time",
        WRAPPER,
        aliases=("gtime",),
        options="-o,--output=:writes -a,--append -f,--format= -p,--portability -v,--verbose -q,--quiet",
        style=POSIX,
        operands="command",
        examples=("time -o t.txt rm x => deletes x; writes t.txt",),
    ),
    program(
        "xargs",
        WRAPPER,
        options="-0,--null -a,--arg-file=:reads -d,--delimiter= -E= -e,--eof=? -I= -i,--replace=? -L,--max-lines= "
        "-l=? -n,--max-args= -o,--open-tty -p,--interactive -P,--max-procs= --process-slot-var= -r,--no-run-if-empty "
        "-s,--max-chars= -t,--verbose -x,--exit --show-limits",
        style=POSIX,
        operands="command",
        handler=_xargs,
        examples=("xargs rm => passes", "xargs -I{} rm {} => deletes {}", "xargs -a list rm => reads list"),
    ),
    program(
        "parallel",
        WRAPPER,
        options="-j,--jobs= -k,--keep-order -S,--sshlogin= -a,--arg-file=:reads -I= --colsep= -d,--delimiter= -0,--null "
        "-n,--max-args= -N= -X -m -q,--quote --pipe --block= --tag --halt= --results=:writes --joblog=:writes --tmpdir= "
        "--env= --dry-run --shebang --no-notice --citation -v --eta --bar --progress --timeout= --retries= --delay= "
        "-u,--ungroup --line-buffer --group -P= -L= -l= -E= -r --load= --memfree= --nice= --sshloginfile=:reads "
        "--transfer --return= --cleanup --basefile= --workdir=,--wd= -w= --plus --header= --rpl= --resume "
        "--resume-failed --shuf -s,--max-chars=",
        style=POSIX,
        operands="command",
        language="sh",
        handler=_parallel,
        examples=("parallel rm ::: a b => runs rm a; runs rm b", "parallel 'gzip {}' ::: x => runs gzip x"),
    ),
    program(
        "watch",
        WRAPPER,
        options="-n,--interval= -d,--differences=? -g,--chgexit -q,--equexit= -e,--errexit -b,--beep -c,--color -C,--no-color -t,--no-title -w,--no-wrap -x,--exec -p,--precise -r,--no-rerun -f,--follow",
        style=POSIX,
        operands="command",
        language="sh",
        handler=_runs_joined("watch", ("-x", "--exec")),
        examples=("watch 'rm x' => runs rm x", "watch -x rm x => deletes x"),
    ),
    program(
        "flock",
        WRAPPER,
        options="-s,--shared -x,-e,--exclusive -n,--nonblock,--nb -w,--timeout= -E,--conflict-exit-code= -o,--close -u,--unlock -F,--no-fork -c,--command=:runs --verbose --fcntl",
        style=POSIX,
        operands="value command",
        language="sh",
        handler=_flock,
        examples=("flock /tmp/l rm x => deletes x", "flock /tmp/l -c 'rm x' => runs rm x"),
    ),
    program(
        "chroot",
        WRAPPER,
        options="--userspec= --groups= --skip-chdir",
        style=POSIX,
        operands="value command",
        handler=_remap,
        examples=("chroot /srv rm x => deletes x",),
    ),
    program(
        "unshare",
        WRAPPER,
        options="-m,--mount=? -u,--uts=? -i,--ipc=? -n,--net=? -p,--pid=? -U,--user=? -C,--cgroup=? -T,--time=? -f,--fork -r,--map-root-user -c,--map-current-user --map-user= --map-group= --map-users= --map-groups= --map-auto --kill-child=? --mount-proc=? --propagation= --setgroups= -R,--root= -w,--wd=:chdir -S,--setuid= -G,--setgid= --keep-caps --monotonic= --boottime= -l,--load-interp=",
        style=POSIX,
        operands="command",
        handler=lambda r: _remap(r) if r.has("-R", "--root") else None,
        examples=("unshare -r rm x => deletes x",),
    ),
    program(
        "nsenter",
        WRAPPER,
        options="-t,--target= -m,--mount=? -u,--uts=? -i,--ipc=? -n,--net=? -p,--pid=? -U,--user=? -C,--cgroup=? -T,--time=? -a,--all -S,--setuid= -G,--setgid= --preserve-credentials -r,--root=? -w,--wd=? -W,--wdns= -e,--env -F,--no-fork -Z,--follow-context --keep-caps",
        style=POSIX,
        operands="command",
        handler=lambda r: _remap(r) if r.has("-r", "--root", "-m", "--mount", "-a", "--all") else None,
        examples=("nsenter -t 1 -n rm x => deletes x",),
    ),
    program(
        "setarch",
        WRAPPER,
        options="-R,--addr-no-randomize -F,--fdpic-funcptrs -Z,--mmap-page-zero -L,--addr-compat-layout -X,--read-implies-exec -B,--32bit -I,--short-inode -S,--whole-seconds -T,--sticky-timeouts -3,--3gb --4gb --uname-2.6 -v,--verbose --list",
        style=POSIX,
        operands="value command",
        examples=("setarch x86_64 -R rm x => passes",),
    ),
    program(
        "linux64",
        WRAPPER,
        aliases=("linux32", "i386", "x86_64", "uname26"),
        options="-R,--addr-no-randomize -F -Z -L -X -B -I -S -T -3 --4gb --uname-2.6 -v,--verbose",
        style=POSIX,
        operands="command",
        examples=("linux64 rm x => deletes x",),
    ),
    program(
        "prlimit",
        WRAPPER,
        options="--as=? --core=? --cpu=? --data=? --fsize=? --locks=? --memlock=? --msgqueue=? --nice=? --nofile=? --nproc=? --rss=? --rtprio=? --rttime=? --sigpending=? --stack=? -p,--pid= -o,--output= --noheadings --raw --verbose -A=? -c=? -d=? -e=? -f=? -i=? -l=? -m=? -n=? -q=? -r=? -s=? -t=? -u=? -v=? -x=? -y=?",
        style=POSIX,
        operands="command",
        examples=("prlimit --nofile=64 rm x => deletes x",),
    ),
    program(
        "firejail",
        WRAPPER,
        options="--private=? --whitelist= --blacklist= --read-only= --read-write= --noprofile --profile= --net= --quiet --seccomp --caps.drop= --tmpfs= --bind= --chroot= --overlay --overlay-tmpfs --env= --rmenv= --name=",
        style=POSIX,
        complete=False,
        operands="command",
        handler=_remap,
        examples=("firejail rm x => deletes x",),
    ),
    program(
        "bwrap",
        WRAPPER,
        options="--bind=2 --bind-try=2 --ro-bind=2 --ro-bind-try=2 --dev-bind=2 --dev-bind-try=2 --symlink=2 "
        "--chdir=:chdir --setenv=2 --unsetenv= --dir= --file=2 --bind-data=2 --ro-bind-data=2 --tmpfs= --proc= "
        "--dev= --remount-ro= --perms= --chmod=2 --size= --uid= --gid= --hostname= --args= --argv0= --seccomp= "
        "--add-seccomp-fd= --info-fd= --json-status-fd= --lock-file= --sync-fd= --block-fd= --userns-block-fd= "
        "--exec-label= --file-label= --cap-add= --cap-drop= --unshare-all --unshare-user --unshare-user-try "
        "--unshare-ipc --unshare-pid --unshare-net --unshare-uts --unshare-cgroup --unshare-cgroup-try --share-net "
        "--die-with-parent --as-pid-1 --new-session --clearenv --overlay-src= --overlay=3 --tmp-overlay= "
        "--ro-overlay= --level-prefix --disable-userns --assert-userns-disabled --pidns= --userns= --userns2= --help --version",
        style=POSIX,
        operands="command",
        handler=_remap,
        examples=("bwrap --bind / / rm x => deletes x",),
    ),
    program(
        "proot",
        WRAPPER,
        options="-r,--rootfs= -b,--bind,-m,--mount= -w,--pwd,--cwd= -v,--verbose= -V,--version -h,--help -k,--kernel-release= -0,--root-id -i,--change-id= -R= -S= -q,--qemu= --kill-on-exit",
        style=POSIX,
        operands="command",
        handler=_remap,
        examples=("proot -r /srv rm x => deletes x",),
    ),
    program(
        "systemd-run",
        WRAPPER,
        options="--user --system --scope -u,--unit= -p,--property= --description= --slice= --slice-inherit -r,--remain-after-exit --send-sighup --service-type= --uid= --gid= --nice= --working-directory=:chdir -d,--same-dir -E,--setenv= -t,--pty -P,--pipe -S,--shell -q,--quiet --wait -G,--collect --on-active= --on-boot= --on-startup= --on-unit-active= --on-unit-inactive= --on-calendar= --on-clock-change --on-timezone-change --path-property= --socket-property= --timer-property= --no-block --no-ask-password -H,--host= -M,--machine=",
        style=POSIX,
        operands="command",
        examples=("systemd-run --user rm x => deletes x",),
    ),
    program(
        "runcon",
        WRAPPER,
        options="-c,--compute -u,--user= -r,--role= -t,--type= -l,--range=",
        style=POSIX,
        operands="command",
        examples=("runcon -t x rm y => deletes y",),
    ),
    program(
        "chpst",
        WRAPPER,
        options="-u= -U= -b= -e= -/= -C= -n= -l= -L= -m= -d= -o= -p= -f= -c= -v -P -0 -1 -2",
        style=POSIX,
        operands="command",
        examples=("chpst -u me rm x => deletes x",),
    ),
    program(
        "setpriv",
        WRAPPER,
        options="--reuid= --regid= --clear-groups --keep-groups --init-groups --groups= --inh-caps= --ambient-caps= --bounding-set= --securebits= --pdeathsig= --selinux-label= --apparmor-profile= --landlock-access= --landlock-rule= --no-new-privs,--nnp --reset-env -d,--dump",
        style=POSIX,
        operands="command",
        examples=("setpriv --nnp rm x => deletes x",),
    ),
    program(
        "capsh",
        WRAPPER,
        options="--caps= --drop= --inh= --addamb= --delamb= --noamb --user= --uid= --gid= --groups= --chroot= --secbits= --keep= --print --decode= --supports= --has-p= --has-i= --has-a= --has-ambient --iab= --mode=? --quiet",
        style=POSIX,
        operands="value...",
        handler=_capsh,
        examples=("capsh -- -c 'rm x' => runs rm x",),
    ),
    program(
        "fakeroot",
        WRAPPER,
        options="-l,--lib= --faked= -s=:writes -i=:reads -u,--unknown-is-real -b= -h,--help -v,--version",
        style=POSIX,
        operands="command",
        examples=("fakeroot rm x => deletes x",),
    ),
    program(
        "faketime",
        WRAPPER,
        options="-f -m -p= --exclude-monotonic --disable-shm --date-prog=",
        style=POSIX,
        operands="value command",
        examples=("faketime '2020-01-01' rm x => deletes x",),
    ),
    program(
        "valgrind",
        WRAPPER,
        options="--tool= --log-file=:writes --xml-file=:writes --log-fd= --log-socket= --trace-children=? -q,--quiet -v,--verbose --leak-check=? --show-leak-kinds= --track-origins=? --suppressions=:reads --gen-suppressions=? --error-exitcode= --vgdb=? --xml=?",
        style=POSIX,
        complete=False,
        operands="command",
        examples=("valgrind --log-file=v.log ./a => writes v.log",),
    ),
    program(
        "catchsegv",
        WRAPPER,
        aliases=(
            "eatmydata",
            "dumb-init",
            "tini",
            "ifne",
            "chronic",
            "unbuffer",
            "torsocks",
            "proxychains",
            "proxychains4",
            "tsocks",
            "pkexec",
            "ssh-agent",
            "dbus-run-session",
            "xvfb-run",
            "caffeinate",
            "arch",
            "nocache",
            "grc",
        ),
        options="-n -e -v -p -a= -s= -f= -w= -d -i -m -u -t= -q -l --user= --keep-cwd --config-file= --",
        style=POSIX,
        operands="command",
        complete=False,
        examples=("eatmydata rm x => deletes x",),
    ),
    program(
        "sshpass",
        WRAPPER,
        options="-p= -f=:reads -d= -e -P= -v -h -V",
        style=POSIX,
        operands="command",
        examples=("sshpass -p x ssh h => passes",),
    ),
    program(
        "sg",
        WRAPPER,
        options="-c",
        style=POSIX,
        operands="value command",
        language="sh",
        handler=_runs_joined("sg"),
        examples=("sg grp -c 'rm x' => runs rm x", "sg grp 'rm x' => runs rm x"),
    ),
    program(
        "su",
        WRAPPER,
        aliases=("runuser",),
        handler=_su,
        options="-c,--command=:runs --session-command=:runs -s,--shell= -l,--login -m,-p,--preserve-environment -g,--group= -G,--supp-group= -P,--pty -w,--whitelist-environment= -f,--fast -u,--user= -T,--no-pty -",
        operands="value value...",
        language="sh",
        examples=(
            "su root -c 'rm x' => runs rm x",
            "su -c 'rm x' => runs rm x",
            "runuser -u me -- rm x => deletes x",
            "su me => stdin code",
        ),
    ),
    program(
        "su-exec",
        WRAPPER,
        aliases=("gosu", "setuidgid", "envdir", "envuidgid"),
        style=POSIX,
        operands="value command",
        examples=("gosu me rm x => deletes x",),
    ),
    program(
        "direnv",
        WRAPPER,
        subcommands={"exec": ("exec", WRAPPER, {"operands": "chdir command", "style": POSIX})},
        examples=("direnv exec /p rm x => chdir /p; deletes x",),
    ),
    program(
        "dotenv",
        WRAPPER,
        options="-e= -c=? -v= -p= --debug --quiet -o --override",
        style=POSIX,
        operands="command",
        examples=("dotenv -e .env rm x => deletes x",),
    ),
    program(
        "entr",
        WRAPPER,
        options="-a -c -d -n -p -r -s -z",
        style=POSIX,
        operands="command",
        language="sh",
        handler=_entr,
        examples=("entr -s 'rm x' => runs rm x", "entr make => passes"),
    ),
    program(
        "watchexec",
        WRAPPER,
        options="-w,--watch= -e,--exts= -f,--filter= -i,--ignore= -c,--clear=? -r,--restart -s,--signal= --shell= -n -p,--postpone -d,--debounce= --no-vcs-ignore --no-project-ignore -W,--watch-non-recursive= -E,--env= --workdir=:chdir -o,--on-busy-update= -N,--notify",
        style=POSIX,
        operands="command",
        language="sh",
        handler=_runs_joined("watchexec"),
        examples=("watchexec -e py 'rm x' => runs rm x",),
    ),
    program(
        "nodemon",
        WRAPPER,
        options="-x,--exec=:runs -w,--watch= -e,--ext= -i,--ignore= -d,--delay= --signal= -q,--quiet -V,--verbose --config=:reads --cwd=:chdir",
        style=POSIX,
        operands="value args",
        language="sh",
        examples=("nodemon --exec 'rm x' => runs rm x",),
    ),
    program(
        "tmux",
        WRAPPER,
        options="-2 -C -D -l -N -u -v -V -c=:runs -f=:script -L= -S= -T=",
        style=POSIX,
        operands="value...",
        language="sh",
        handler=_tmux,
        examples=(
            "tmux new -d 'rm x' => runs rm x",
            "tmux send-keys -t 0 'rm x' Enter => runs rm x",
            "tmux ls => passes",
        ),
    ),
    program(
        "screen",
        WRAPPER,
        options="-a -A -c=:script -d -D -r -R -m -S= -X -x -L -Logfile=:writes -q -U -ls,-list -wipe -t= -p= -h= -e= -T= -s= -dmS=",
        style=POSIX,
        single_dash=True,
        operands="command",
        language="sh",
        handler=_screen,
        examples=("screen -S s -X stuff 'rm x' => runs rm x", "screen -dmS s rm x => deletes x"),
    ),
    program(
        "strace",
        WRAPPER,
        options="-o,--output=:writes -e,--expr= -p,--attach= -E,--env= -u,--user= -s,--string-limit= -S,--summary-sort-by= -P,--trace-path= -a,--columns= -b,--detach-on= -I,--interruptible= -O,--summary-syscall-overhead= -X,--const-print-style= -f,--follow-forks -ff,--output-separately -c,--summary-only -C,--summary -t,--absolute-timestamps -tt -ttt -T,--syscall-times -y,--decode-fds=? -yy -k,--stack-traces -q,--quiet=? -v,--no-abbrev -x -xx -Z,--failed-only -z,--successful-only -D,--daemonize=? -d,--debug -h,--help -V,--version -r,--relative-timestamps=? -w,--summary-wall-clock -n,--syscall-number -i,--instruction-pointer -A,--output-append-mode --seccomp-bpf",
        style=POSIX,
        operands="command",
        language="sh",
        examples=("strace -o t.log ls => writes t.log",),
    ),
    program(
        "ltrace",
        WRAPPER,
        options="-o,--output=:writes -e= -p= -u= -s= -a,--align= -A= -D,--debug= -F,--config=:reads -l,--library= -n,--indent= -x= -L -b,--no-signals -c -C,--demangle -f -i -r -S -t -tt -ttt -T -w,--where=",
        style=POSIX,
        operands="command",
        examples=("ltrace -o t.log ls => writes t.log",),
    ),
    program(
        "perf",
        WRAPPER,
        subcommands={
            name: (
                name,
                WRAPPER,
                {
                    "options": "-o,--output=:writes -e,--event= -g -a -p,--pid= -F,--freq= -c,--count= -q,--quiet -v,--verbose",
                    "style": POSIX,
                    "operands": "command",
                    "complete": False,
                },
            )
            for name in ("record", "stat", "trace")
        },
        examples=("perf record -o p.data ls => writes p.data",),
    ),
    program(
        "script",
        WRAPPER,
        options="-a,--append -c,--command=:runs -e,--return -f,--flush -E,--echo= -I,--log-in=:writes -O,--log-out=:writes "
        "-B,--log-io=:writes -T,--log-timing=:writes -t,--timing=? -m,--logging-format= -q,--quiet -o,--output-limit=",
        operands="writes",
        language="sh",
        handler=lambda r: None if r.has("-c", "--command") else r.add(STDIN_CODE, None, "script"),
        examples=("script -q -c 'rm x' log => runs rm x; writes log", "script log => writes log; stdin code"),
    ),
    program(
        "busybox",
        WRAPPER,
        aliases=("toybox",),
        style=POSIX,
        operands="command",
        examples=("busybox rm x => deletes x",),
    ),
)
