"""Which calls run in the jail, and what is blocked instead (``cupcake run --jail``).

Every shell call Cupcake lets through gets the same decision with the command to run in its place:
the agent's command inside the jail. What the policies block stays blocked; soft feedback on a tool
call is a block already. Blocked instead, each with the cause and the fix:

- an ``ask`` where the agent cannot both ask and run a rewritten command (a plain ask would run the
  command outside the jail once the person agreed);
- a command that cannot be written into a jail (a NUL, too long), or a jail the hook can see cannot
  start (no bubblewrap where it looks);
- a call whose tool Cupcake could not tell (its event could not be read): a run that failed under
  fail_mode "open" would let it through as it is. A failed run whose call is a shell call is jailed.

An agent's shell tool Cupcake cannot rewrite never runs as it is: it is blocked too.

The command line (the one warm module of the jail: every jailed call loads it, and nothing else of it
when nothing changed)::

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

from cupcake import lean_os as os
from cupcake.jail import BWRAP_PLACES, JAIL_DIR, Unjailable  # noqa: F401 (Unjailable: callers catch it here)
from cupcake.pipeline.response import ASK, BLOCK, ERROR, SOFT, Response

# The kernel's limit on one argument (MAX_ARG_STRLEN, 32 pages): the agent passes the whole rewritten
# command to its shell as one.
MAX_COMMAND_BYTES = 131072 - 1
_STAT_KEYS = (*BWRAP_PLACES, "/usr/bin/env", "/bin/env")

LAYER = "Cupcake's OS layer"
PRE_TOOL = "PreToolUse"
SHELLS = frozenset({"bash", "zsh", "sh", "dash", "ksh", "mksh"})


def applies(ctx) -> bool:
    """Whether this run answers a shell call with the OS layer on (cheap)."""
    if not ctx.options.get("jail"):
        return False
    event = ctx.event or _event_named(ctx)
    return event == PRE_TOOL


def _event_named(ctx):
    """The canonical event the hook command names (``--event``), when the payload could not be read."""
    try:
        return ctx.agent.parse({}, ctx.event_arg, ctx.env)[0] if ctx.event_arg else None
    except (ValueError, AttributeError, TypeError):
        return None


def shell_call(ctx) -> bool | None:
    """True for the agent's shell tool, False for another tool, None when the tool is unknown."""
    incoming = ctx.incoming
    if incoming is None:
        return None
    if incoming.tool == "Bash" or incoming.agent_tool in getattr(ctx.agent, "SHELL_TOOLS", ()):
        return True
    return False if incoming.tool else None


def response(ctx, prepared) -> Response:
    """The answer to render for this call: ``prepared`` with the jailed command, or a block."""
    cached = ctx.options.get("jail_response")
    if cached is not None and cached[0] is prepared:
        return cached[1]
    answer = _decide(ctx, prepared)
    ctx.options["jail_response"] = (prepared, answer)
    return answer


def _decide(ctx, prepared) -> Response:
    shell = shell_call(ctx)
    if shell is False:
        return prepared
    d = prepared.decision
    if d in (BLOCK, SOFT) or (d == ERROR and prepared.fail_closed):
        return prepared  # blocked already (a closed-mode failure is a block on this event)
    display = getattr(ctx.agent, "DISPLAY_NAME", ctx.agent.NAME)
    rewrite = getattr(ctx.agent, "REWRITE", None)
    if shell is None:
        failure = f" ({prepared.text.removeprefix('Cupcake: ')})" if d == ERROR and prepared.text else ""
        return _blocked(
            prepared,
            f"Cupcake could not tell which tool this call is for{failure}, and the OS layer never lets a command "
            "run outside its jail",
        )
    agent_event = ctx.payload.get("agent_event") if isinstance(ctx.payload, dict) else None
    tool = ctx.incoming.agent_tool or ctx.incoming.tool
    if not rewrite or tool not in rewrite["tools"] or (agent_event and agent_event not in rewrite["events"]):
        return _blocked(prepared, f"{display} cannot have this shell tool's command rewritten into Cupcake's jail")
    if d == ASK and not rewrite["ask"]:
        reason = prepared.reason or "a policy asks for a person's confirmation"
        return _blocked(
            prepared,
            f"{reason}. {display} cannot ask and also run the command in Cupcake's jail, so it is blocked: ask "
            "the user to run it themselves, or to change the policy",
        )
    command = ctx.incoming.tool_input.get("command")
    if not isinstance(command, str):
        return _blocked(prepared, "the shell call has no command text to run in the jail")
    try:
        line = _jailed(ctx, command, rewrite)
    except Unjailable as exc:
        return _blocked(prepared, str(exc))
    if line == ctx.options.get("jail_wrapped"):
        return prepared  # the command is already this very jail (an agent that asks twice)
    jailed = Response(
        d, prepared.text, prepared.soft_text, prepared.reason, prepared.context, prepared.fail_closed, line
    )
    jailed.private = prepared.private
    return jailed


def _jailed(ctx, command: str, rewrite: dict) -> str:
    root = ctx.root or _root(ctx)
    protected = ctx.policies.get("protected") if ctx.policies else None
    if not protected:
        from cupcake.protection.protected_set import protected_defaults

        protected = protected_defaults(root, ctx.env)
    if not _darwin() and not bwrap_found():
        raise Unjailable(
            f"bubblewrap is not installed (looked for {', '.join(BWRAP_PLACES)}; never on the agent's "
            "PATH), so the command cannot run in the jail. Fix: install it (Debian, Ubuntu: `sudo apt-get install "
            "bubblewrap`), then run `cupcake doctor`"
        )
    return jailed_command(
        command,
        root=root,
        env=ctx.env,
        protected=protected,
        shell=_shell(rewrite, ctx.env),
        agent=ctx.agent.NAME,
        unshare_net=bool(ctx.options.get("jail_unshare_net")),
    )


def _darwin() -> bool:
    import sys

    return sys.platform == "darwin"


def _root(ctx) -> str:
    from cupcake.project import find_root

    incoming = ctx.incoming
    return find_root(incoming.project_dir if incoming else ctx.agent.project_dir(ctx.env), incoming and incoming.cwd)


def _shell(rewrite: dict, env) -> str:
    """The shell the jailed command runs with, by name (the launcher finds it in a fixed place): the
    agent's own (bash), or for agents that use the user's login shell, that of ``$SHELL`` when it is a
    POSIX shell."""
    if rewrite.get("shell") == "user":
        name = os.path.basename(env.get("SHELL") or "")
        if name in SHELLS:
            return name
    return "bash"


def _blocked(prepared, why: str) -> Response:
    text = f"{LAYER}: {why}."
    return Response(BLOCK, text=text, context=prepared.context)


# ## The command line #################################################################################


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
    from cupcake.stores.user_secret import secret

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
    from cupcake.stores.atomic_write import write_atomically

    body = "\0".join(found).encode("utf-8", "surrogateescape")
    try:
        write_atomically(os.path.join(root, JAIL_DIR, key + ".index"), body + b"\0" + seal(secret, key, body).encode())
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
    words += [quote(spec), shell if shell in SHELLS else quote(shell), quote(command)]
    line = " ".join(words)
    size = len(line.encode("utf-8"))
    if size > MAX_COMMAND_BYTES:
        raise Unjailable(
            f"the command is {len(command.encode('utf-8'))} bytes; run in the jail it would be {size}, over the "
            f"{MAX_COMMAND_BYTES + 1}-byte limit the kernel sets for one argument: write it to a script file "
            "and run that"
        )
    return line
