"""The jail launcher: runs one shell command with Cupcake's protected paths read-only.

    python -I -S launch.py [--unshare-net] [--agent NAME] SPEC SHELL COMMAND

The rewritten shell call of an agent runs this with the absolute path of the interpreter that runs
Cupcake's hook, ``-I`` (no PYTHON* variable, no user site, no script directory on the path) and
``-S`` (no site-packages, no .pth file): it imports nothing but the interpreter's own modules, so
nothing the agent may have written or set changes what it does. It is a script on purpose (the
package is not on its path) and imports nothing from Cupcake.

SPEC names the jail's content-addressed file under ``.cupcake/jail/`` (its name is the digest of its
bytes, checked here). It also holds what Cupcake's policy files were when the hook answered: if they
changed since, what the jail must protect may have changed too, and the command is not run (asked
again, the hook judges it against them as they are). COMMAND runs as ``SHELL -c COMMAND``, its bytes
unchanged; SHELL is a shell's name, found in a fixed place (or an absolute path).

On Linux: bubblewrap, in a new user namespace that maps the caller's own uid and gid and holds no
capability (``--cap-drop ALL``), so even a command run as root cannot unmount, remount or move what
is bound; no nested user namespace (``--disable-userns`` where bwrap has it); the whole filesystem
bound as it is (``--dev-bind / /``), then:

- each directory above a protected path that the caller could rename is bound on itself, so that
  it cannot be renamed or removed (a mount point cannot be), and with it the path below;
- each protected file or directory bound read-only on itself; one that does not exist yet gets a
  read-only empty placeholder at its first missing component, so it cannot be created (bubblewrap
  leaves the empty mount point on disk: it is never removed, because removing it would lift the
  protection from any jailed process still running);
- each secret covered by an empty read-only file, so reading it gives nothing.

The network, environment, cwd, standard streams, process group and background processes are as
they were. The launcher stays the parent: it ignores the interrupt and termination signals the
agent sends to the whole process group (the command gets them as before), and exits with the
command's status. If the jail cannot start, the command is not run: the launcher says why and how
to fix it, and exits 126.

On macOS: ``sandbox-exec`` with a profile that denies writing the protected paths (and renaming or
removing the directories above them) and reading the secrets; it execs the command directly."""

import os
import sys

VERSION = b"cupcake-jail 1"
REFUSED = 126  # the exit status when the command was not run: the jail refused or could not start
MAX_SPEC = 4 << 20

# Record kinds of a spec: (kind, path) pairs.
BWRAP = "bwrap"  # the bubblewrap executable (absolute; never looked up on PATH)
OPTION = "option"  # a bwrap option this bwrap has (--disable-userns)
POLICY = "policy"  # a Cupcake policy file: protected as a file; the next record is its state
STATE = "state"  # what the policy file before it was when the hook answered (file_state)
FILE = "file"  # a protected file
DIR = "dir"  # a protected directory
EXISTING = "existing"  # protected if it exists (no placeholder when it does not)
HIDE = "hide"  # a secret: read as empty, not writable
WRITABLE = "rw"  # writable again inside a protected directory
EMPTY_FILE = "empty-file"  # the empty read-only file placeholders are bound from
EMPTY_DIR = "empty-dir"  # the empty read-only directory placeholders are bound from
ENV = "env"  # an env(1) that can reset signal handling (--default-signal), found at a fixed place
KINDS = frozenset({BWRAP, OPTION, POLICY, STATE, FILE, DIR, EXISTING, HIDE, WRITABLE, EMPTY_FILE, EMPTY_DIR, ENV})
VALUES = frozenset({OPTION, STATE})  # records whose value is not a path

# A shell named by its name alone is looked for here, never on PATH (the agent's PATH may be hostile); the
# rewritten command names it that way so that it names no path an agent would ask about (Copilot CLI does).
SHELLS = ("bash", "zsh", "sh", "dash", "ksh", "mksh")
SHELL_PLACES = ("/bin", "/usr/bin", "/usr/local/bin")

SIGNALS_TO_IGNORE = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
# Python ignores these at start; a program it starts must get them back as they were.
SIGNALS_PYTHON_IGNORES = ("SIGPIPE", "SIGXFSZ")


DOCTOR = "run `cupcake doctor`, which says what stops the jail here"


class Refused(Exception):
    """The command is not run: ``cause`` says why, ``fix`` what to do."""

    def __init__(self, cause: str, fix: str = DOCTOR):
        super().__init__(cause)
        self.cause = cause
        self.fix = fix


# ## The spec ######################################################################################


def digest(data: bytes) -> str:
    from _blake2 import blake2b

    return blake2b(data, digest_size=16).hexdigest()


def encode(records) -> bytes:
    """The bytes of a spec holding ``records`` ((kind, path) pairs)."""
    parts = [VERSION]
    for kind, path in records:
        if kind not in KINDS or "\0" in path or not (path.startswith("/") or kind in VALUES):
            raise ValueError(f"not a jail record: {kind!r} {path!r}")
        parts += [kind.encode(), os.fsencode(path)]
    return b"\0".join(parts) + b"\0"


def decode(data: bytes) -> list:
    fields = data.split(b"\0")
    if fields[0] != VERSION or fields[-1] != b"" or len(fields) % 2 != 0:
        raise Refused("the jail's description is not one this launcher reads")
    records = []
    for i in range(1, len(fields) - 1, 2):
        kind, path = fields[i].decode("ascii", "replace"), os.fsdecode(fields[i + 1])
        if kind not in KINDS or not (path.startswith("/") or kind in VALUES):
            raise Refused(f"the jail's description holds an unknown record ({kind})")
        records.append((kind, path))
    return records


def read_spec(path: str) -> list:
    """The records of the spec at ``path``, whose name must be the digest of its bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as exc:
        raise Refused(f"the jail's description {path} cannot be read ({exc.strerror})")
    try:
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_SPEC:
                raise Refused(f"the jail's description {path} is larger than {MAX_SPEC} bytes")
            chunks.append(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if os.path.basename(path) != digest(data) + ".spec":
        raise Refused(f"the jail's description {path} does not match its name (it was changed)")
    return decode(data)


def file_state(path: str) -> str:
    """What a policy file is now (identity, size, time), or "-" when it is not there."""
    try:
        st = os.stat(path)
    except OSError:
        return "-"
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"


def changed_policies(records) -> list:
    """The policy files whose state differs from the one recorded after them."""
    changed = []
    for (kind, path), (next_kind, state) in zip(records, records[1:]):
        if kind == POLICY and (next_kind != STATE or file_state(path) != state):
            changed.append(path)
    return changed


# ## What to bind ##################################################################################


def changeable(path: str) -> bool:
    """Whether this process could change ``path`` itself (it owns it, or may write it)."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return st.st_uid == os.geteuid() or os.access(path, os.W_OK, follow_symlinks=False)


def _depth(path: str) -> int:
    return 0 if path == "/" else path.count("/")


def _inside(path: str, directory: str) -> bool:
    return directory == "/" or path == directory or path.startswith(directory + "/")


def _first_missing(path: str):
    """(first missing component, its existing parent) of ``path``, or None when it exists."""
    if os.path.lexists(path):
        return None
    missing = path
    parent = os.path.dirname(missing)
    while parent != missing and not os.path.lexists(parent):
        missing, parent = parent, os.path.dirname(parent)
    return missing, parent


def mounts(records):
    """(binds, pins): the read-only and writable binds, in the order to make them, and the
    directories to bind on themselves first. Looks at the filesystem as it is now."""
    empty_file = next((p for k, p in records if k == EMPTY_FILE), None)
    empty_dir = next((p for k, p in records if k == EMPTY_DIR), None)
    protected: list = []  # (kind, resolved path)
    for kind, path in records:
        if kind in (POLICY, FILE, DIR, EXISTING, HIDE, WRITABLE):
            real = os.path.realpath(path)
            item = (FILE if kind == POLICY else kind, real)
            if item not in protected:
                protected.append(item)
    protected.sort(key=lambda item: (_depth(item[1]), item[0] == WRITABLE))
    binds: list = []  # (bwrap option, source, destination)
    whole: list = []  # directories bound read-only whole
    anchors: list = []  # paths whose ancestors are pinned
    for kind, real in protected:
        if kind == WRITABLE:
            if os.path.isdir(real) and any(_inside(real, d) for d in whole):
                binds.append(("--bind", real, real))
            continue
        if any(_inside(real, d) for d in whole):
            if kind == HIDE and os.path.isfile(real) and empty_file:
                binds.append(("--ro-bind", empty_file, real))
            continue
        if kind == HIDE:
            if os.path.isfile(real) and empty_file:
                binds.append(("--ro-bind", empty_file, real))
                anchors.append(real)
            continue
        missing = _first_missing(real)
        if missing is None:
            if not (changeable(real) or changeable(os.path.dirname(real))):
                continue  # this process can neither change it nor replace it: nothing to bind
            binds.append(("--ro-bind", real, real))
            anchors.append(real)
            if os.path.isdir(real):
                whole.append(real)
            continue
        first, parent = missing
        if kind == EXISTING or not changeable(parent):
            continue  # it cannot be created by this process either
        source = empty_file if (first == real and kind == FILE) else empty_dir
        if source is None:
            raise Refused("the jail's description names no empty placeholder")
        binds.append(("--ro-bind", source, first))
        anchors.append(first)
        whole.append(first)
    pins: list = []
    for path in anchors:
        up = os.path.dirname(path)
        while up != "/" and up:
            if up not in pins and changeable(os.path.dirname(up)):
                pins.append(up)
            up = os.path.dirname(up)
    pins.sort(key=_depth)
    return binds, pins


def _check_empty(records) -> None:
    for kind, path in records:
        if kind == EMPTY_FILE:
            try:
                st = os.lstat(path)
            except OSError:
                raise Refused(f"the empty placeholder {path} is missing")
            if st.st_size != 0 or not (st.st_mode & 0o170000) == 0o100000:
                raise Refused(f"the placeholder {path} is no longer an empty file")
        elif kind == EMPTY_DIR:
            try:
                entries = os.listdir(path)
            except OSError:
                raise Refused(f"the empty placeholder directory {path} is missing")
            if entries or os.path.islink(path):
                raise Refused(f"the placeholder directory {path} is no longer empty")


def bwrap_argv(records, inner, status_fd: int, unshare_net: bool = False) -> list:
    """The bubblewrap command line that runs ``inner`` (an argv: ``shell -c command``) in the jail."""
    bwrap = next((p for k, p in records if k == BWRAP), None)
    if bwrap is None:
        raise Refused("the jail's description names no bubblewrap executable")
    options = [p for k, p in records if k == OPTION]
    binds, pins = mounts(records)
    argv = [bwrap, "--unshare-user", "--uid", str(os.getuid()), "--gid", str(os.getgid()), "--cap-drop", "ALL"]
    if "--disable-userns" in options:
        argv.append("--disable-userns")
    argv += ["--die-with-parent", "--json-status-fd", str(status_fd)]
    if unshare_net:
        argv.append("--unshare-net")
    argv += ["--dev-bind", "/", "/"]
    for pin in pins:
        argv += ["--dev-bind", pin, pin]
    for option, source, destination in binds:
        argv += [option, source, destination]
    argv += ["--", *inner]
    return argv


# ## macOS #########################################################################################


def _sbpl(path: str) -> str:
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


def seatbelt_profile(records) -> str:
    """The ``sandbox-exec`` profile: everything allowed as before, but no write to a protected path
    (existing or not: Seatbelt matches paths, so a missing one cannot be created), no rename or
    removal of a directory above one, and no reading a secret. Paths are resolved (/tmp is
    /private/tmp there), and written both ways when they differ."""
    deny_write, deny_read, above = [], [], []
    for kind, path in records:
        if kind not in (POLICY, FILE, DIR, EXISTING, HIDE):
            continue
        forms = [path] + ([os.path.realpath(path)] if os.path.realpath(path) != path else [])
        for form in forms:
            rule = f"(subpath {_sbpl(form)})" if kind in (DIR, EXISTING) else f"(literal {_sbpl(form)})"
            if rule not in deny_write:
                deny_write.append(rule)
            if kind == HIDE and f"(literal {_sbpl(form)})" not in deny_read:
                deny_read.append(f"(literal {_sbpl(form)})")
            up = os.path.dirname(form)
            while up not in ("/", ""):
                rule = f"(literal {_sbpl(up)})"
                if rule not in above:
                    above.append(rule)
                up = os.path.dirname(up)
    lines = ["(version 1)", "(allow default)"]
    if deny_write:
        lines.append("(deny file-write*\n    " + "\n    ".join(deny_write) + ")")
    if above:
        lines.append("(deny file-write-unlink file-write-mode file-write-owner\n    " + "\n    ".join(above) + ")")
    if deny_read:
        lines.append("(deny file-read*\n    " + "\n    ".join(deny_read) + ")")
    return "\n".join(lines) + "\n"


SANDBOX_EXEC = "/usr/bin/sandbox-exec"
INSTALL_BWRAP = (
    "install bubblewrap (Debian, Ubuntu: `sudo apt-get install bubblewrap`; Fedora: `sudo dnf install bubblewrap`)"
)


def seatbelt_argv(records, shell: str, command: str) -> list:
    return [SANDBOX_EXEC, "-p", seatbelt_profile(records), shell, "-c", command]


# ## Why it could not start ########################################################################


def _read(path: str) -> str:
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read(4096).strip()
    except OSError:
        return ""


def diagnose(euid: int | None = None) -> tuple[str, str]:
    """(cause, fix) for a jail that did not start, from what the kernel says about this process."""
    euid = os.geteuid() if euid is None else euid
    if _read("/proc/sys/user/max_user_namespaces") == "0":
        return (
            "user namespaces are switched off on this machine (user.max_user_namespaces = 0)",
            "a person with root allows them: sysctl -w user.max_user_namespaces=15000",
        )
    if euid != 0 and _read("/proc/sys/kernel/unprivileged_userns_clone") == "0":
        return (
            "unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone = 0)",
            "a person with root allows them: sysctl -w kernel.unprivileged_userns_clone=1",
        )
    if euid != 0 and _read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
        return (
            "AppArmor does not let unprivileged programs create user namespaces "
            "(kernel.apparmor_restrict_unprivileged_userns = 1)",
            "install the AppArmor profile that allows bwrap (Ubuntu: the apparmor package's bwrap-userns-restrict), "
            "or a person with root runs: sysctl -w kernel.apparmor_restrict_unprivileged_userns=0",
        )
    status = _read("/proc/self/status")
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    seccomp = fields.get("Seccomp", "0").strip()
    uid_map = " ".join(_read("/proc/self/uid_map").split())
    if seccomp not in ("", "0") or (uid_map and uid_map != "0 0 4294967295"):
        return (
            "this command already runs inside another sandbox (a seccomp filter or a user namespace: "
            "the agent's own sandbox, or a container that forbids user namespaces), which does not let "
            "bubblewrap start a jail inside it",
            "turn the agent's own sandbox off where Cupcake's jail replaces it (`cupcake sync --agent NAME "
            "--sandbox` writes a combination that works), or run the container with user namespaces allowed",
        )
    return ("bubblewrap could not set up the jail (its own message is above)", "run `cupcake doctor` to see why")


def refusal(cause: str, fix: str, agent: str = "") -> str:
    off = f"cupcake sync --agent {agent} --sandbox --uninstall" if agent else "cupcake sync --sandbox --uninstall"
    return (
        f"Cupcake jail: the command was not run: {cause}. Fix: {fix}. Cupcake's OS layer never runs a "
        f"command outside its jail; to turn the layer off instead, a person runs `{off}`.\n"
    )


# ## Running #######################################################################################


def resolve_shell(shell: str) -> str:
    """The shell's absolute path: as given when absolute, else a known shell's name found in a fixed place."""
    if os.path.isabs(shell):
        found = shell
    elif shell in SHELLS:
        found = next((os.path.join(d, shell) for d in SHELL_PLACES if os.path.isfile(os.path.join(d, shell))), "")
    else:
        raise Refused(f"the shell {shell!r} is not one the jail runs commands with ({', '.join(SHELLS)})")
    if not (found and os.path.isfile(found) and os.access(found, os.X_OK)):
        raise Refused(f"the shell {shell} is not an executable file here")
    return found


def original_environment():
    """The environment this process was started with, byte for byte: Python itself may add to its own
    (LC_CTYPE, when it coerces the C locale), and the command must get the agent's, unchanged."""
    try:
        with open("/proc/self/environ", "rb") as f:
            data = f.read()
    except OSError:
        return None
    env = {}
    for entry in data.split(b"\0"):
        key, sep, value = entry.partition(b"=")
        if sep and key and key not in env:
            env[key] = value
    return env


def _signals():
    import _signal

    return _signal


def run_linux(records, shell: str, command: str, unshare_net: bool) -> int:
    """Run the command in bubblewrap; return its exit status (``Refused`` when the jail did not start).

    The agent stops a command by signalling its process group, which holds the launcher, bubblewrap's
    monitor and the command alike. The launcher and the monitor ignore those signals, so that only the
    command gets them and its status still comes back; the command gets them as the agent left them
    (``env --default-signal`` undoes the ignoring for it, where env has that option)."""
    _signal = _signals()
    for kind, path in records:
        if kind == BWRAP and not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise Refused(f"bubblewrap is not installed at {path}", INSTALL_BWRAP)
    _check_empty(records)
    environment = original_environment()
    stoppers = [getattr(_signal, name) for name in SIGNALS_TO_IGNORE]
    previous = {sig: _signal.getsignal(sig) for sig in stoppers}
    env_tool = next((p for k, p in records if k == ENV and os.access(p, os.X_OK)), None)
    inner = [shell, "-c", command]
    if env_tool:
        reset = [name[3:] for name, sig in zip(SIGNALS_TO_IGNORE, stoppers) if previous[sig] != _signal.SIG_IGN]
        if reset:
            inner = [env_tool, "--default-signal=" + ",".join(reset), *inner]
    read_end, write_end = os.pipe()
    argv = bwrap_argv(records, inner, write_end, unshare_net)
    for sig in stoppers:
        _signal.signal(sig, _signal.SIG_IGN)
    pid = os.fork()
    if pid == 0:  # the child: becomes bubblewrap
        try:
            for sig in stoppers:  # the monitor keeps ignoring them only when the command gets them back
                if not env_tool and previous[sig] != _signal.SIG_IGN:
                    _signal.signal(sig, _signal.SIG_DFL)
            for name in SIGNALS_PYTHON_IGNORES:
                _signal.signal(getattr(_signal, name), _signal.SIG_DFL)
            os.close(read_end)
            os.set_inheritable(write_end, True)
            os.closerange(3, write_end)
            os.closerange(write_end + 1, 1 << 20)
            if environment is None:
                os.execv(argv[0], argv)
            os.execve(argv[0], argv, environment)
        finally:
            os._exit(127)
    os.close(write_end)
    status = b""
    while True:
        chunk = os.read(read_end, 4096)
        if not chunk:
            break
        if len(status) < 65536:
            status += chunk
    os.close(read_end)
    _, code = os.waitpid(pid, 0)
    if os.WIFSIGNALED(code):
        sig = os.WTERMSIG(code)
        _signal.signal(sig, _signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        return 128 + sig
    if b'"exit-code"' in status:
        return os.waitstatus_to_exitcode(code)
    raise Refused(*diagnose())


def main(argv) -> int:
    args = list(argv)
    unshare_net = False
    agent = ""
    try:
        while args and args[0].startswith("--"):
            option = args.pop(0)
            if option == "--unshare-net":
                unshare_net = True
            elif option == "--agent" and args:
                agent = args.pop(0)
            else:
                raise Refused(f"the launcher was given an unknown option {option!r}")
        if len(args) != 3:
            raise Refused("the launcher was not given SPEC SHELL COMMAND")
        spec, shell, command = args
        records = read_spec(spec)
        if changed_policies(records):
            raise Refused(
                "Cupcake's policy files changed after the hook approved this command, so what the jail must "
                "protect may have changed too",
                "run the command again: the hook checks it against the policies as they are now",
            )
        shell = resolve_shell(shell)
        if sys.platform == "darwin":
            if not os.access(SANDBOX_EXEC, os.X_OK):
                raise Refused(f"{SANDBOX_EXEC} is missing")
            command_line = seatbelt_argv(records, shell, command)
            os.execv(command_line[0], command_line)
        return run_linux(records, shell, command, unshare_net)
    except Refused as exc:
        sys.stderr.write(refusal(exc.cause, exc.fix, agent))
    except OSError as exc:
        sys.stderr.write(refusal(f"the jail could not start ({exc})", DOCTOR, agent))
    return REFUSED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
