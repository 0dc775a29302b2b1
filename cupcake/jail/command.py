"""The command line that runs the agent's command in the jail (warm: every jailed call).

    '<interpreter>' -I -S '<launcher>' [--unshare-net] --agent NAME '<spec>' <shell> '<command>'

The command goes in POSIX single quotes, the one quoting every POSIX shell reads alike with nothing
inside expanded: its bytes reach the shell in the jail unchanged (tests/jail proves it with real bash).

Where the jail's description is (and which interpreter and launcher run it) is kept in an index entry
under ``.cupcake/jail/``, named by what ``spec.computed`` derives it from: the protected set and the
policy files' states, the root and home, the agent, this interpreter and its module path, the launcher,
bubblewrap's and env's identities. The entry is sealed with the per-user secret: one the agent planted,
or another user's, is not trusted, and the description is computed again (as it is after any change,
and always when there is no secret yet)."""

from __future__ import annotations

import os

JAIL_DIR = os.path.join(".cupcake", "jail")
# The kernel's limit on one argument (MAX_ARG_STRLEN, 32 pages): the agent passes the whole rewritten
# command to its shell as one.
MAX_COMMAND_BYTES = 131072 - 1
BWRAP_PLACES = ("/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap")  # never the agent's PATH
_STAT_KEYS = (*BWRAP_PLACES, "/usr/bin/env", "/bin/env")


class Unjailable(Exception):
    """The hook cannot give this command a jail: the call is blocked with this reason."""


def quote(text: str) -> str:
    """POSIX single quotes: a quote in the text closes them, adds an escaped quote, opens them again."""
    return "'" + text.replace("'", "'\\''") + "'"


def bwrap_found() -> bool:
    return any(os.path.isfile(place) and os.access(place, os.X_OK) for place in BWRAP_PLACES)


def _launcher_source() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "launch.py")


def _state(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def index_key(protected: dict, root: str, env, agent: str) -> str:
    import sys
    from _blake2 import blake2b

    seen = (
        repr(protected),
        [_state(p) for p in protected.get("files", ())],
        root,
        env.get("HOME"),
        env.get("XDG_CACHE_HOME"),
        agent,
        sys.executable,
        sys.version,
        sys.path,
        [(p, _state(p)) for p in (*_STAT_KEYS, _launcher_source())],
    )
    return blake2b(repr(seen).encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def seal(secret: bytes, key: str, body: bytes) -> str:
    from _blake2 import blake2b

    return blake2b(key.encode() + b"\0" + body, key=secret[:64], digest_size=16).hexdigest()


def _secret(env):
    from cupcake.stores.policies.cache import secret

    return secret(env)


def indexed(root: str, key: str, env):
    """(interpreter, launcher, spec path) the index holds for ``key``, when its seal holds; else None."""
    path = os.path.join(root, JAIL_DIR, key + ".index")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        data = os.read(fd, 16384)
    finally:
        os.close(fd)
    body, _, sealed = data.rpartition(b"\0")
    secret = _secret(env)
    if not secret or not body or sealed.decode("ascii", "replace") != seal(secret, key, body):
        return None
    fields = body.decode("utf-8", "surrogateescape").split("\0")
    if len(fields) != 3 or not os.path.exists(fields[2]):
        return None
    return fields[0], fields[1], fields[2]


def _index(root: str, key: str, env, found) -> None:
    secret = _secret(env)
    if not secret:
        return
    from cupcake.stores.safe_files import write_whole

    body = "\0".join(found).encode("utf-8", "surrogateescape")
    try:
        write_whole(os.path.join(root, JAIL_DIR, key + ".index"), body + b"\0" + seal(secret, key, body).encode())
    except OSError:
        pass  # computed again next time


def jailed_command(
    command: str,
    *,
    root: str,
    env,
    protected: dict,
    shell: str,
    agent: str = "",
    unshare_net: bool = False,
) -> str:
    """The command line that runs ``shell -c command`` in the jail; ``Unjailable`` when it cannot be
    written (a NUL or an unpaired surrogate no shell can be given, or a command too long)."""
    if "\0" in command:
        raise Unjailable("the command holds a NUL character, which no shell can be given")
    try:
        command.encode("utf-8")
    except UnicodeEncodeError:
        raise Unjailable("the command holds text that is not valid Unicode (an unpaired surrogate)") from None
    key = index_key(protected, root, env, agent)
    found = indexed(root, key, env)
    if found is None:
        from cupcake.jail.spec import computed

        found = computed(protected, root, env, agent)
        _index(root, key, env, found)
    interpreter, launcher, spec = found
    words = [quote(interpreter), "-I", "-S", quote(launcher)]
    if unshare_net:
        words.append("--unshare-net")
    if agent:
        words += ["--agent", agent]
    words += [quote(spec), quote(shell) if shell not in SHELL_NAMES else shell, quote(command)]
    line = " ".join(words)
    size = len(line.encode("utf-8"))
    if size > MAX_COMMAND_BYTES:
        raise Unjailable(
            f"the command is {len(command.encode('utf-8'))} bytes; run in the jail it would be {size}, over the "
            f"{MAX_COMMAND_BYTES + 1}-byte limit the kernel sets for one argument: write it to a script file "
            "and run that"
        )
    return line


SHELL_NAMES = frozenset({"bash", "zsh", "sh", "dash", "ksh", "mksh"})
