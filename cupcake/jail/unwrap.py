"""The user's command inside a jailed command line this Cupcake wrote, so that policies judge what the
model asked for (after the call: the agent reports the command it ran, the jailed one; and a second
hook on the same call, such as Cursor's before-shell event after its before-tool one, sees the
rewritten command).

Only an exact jailed command line of this installation is read through: this interpreter, this
launcher, one of this project's jail descriptions. Anything else, however close, is a command like
any other and is judged as written."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.jail.quote import split_quoted

MARK = "/cupcake/jail/"


def launch_shells():
    from cupcake.jail.launch import SHELLS

    return SHELLS


def looks_jailed(command) -> bool:
    """Cheap: whether ``command`` may be a jailed command line (then ``inner`` decides)."""
    return isinstance(command, str) and MARK in command[:4096] and " -I -S " in command[:4096]


def inner(command: str, root: str | None) -> str | None:
    """The command a jailed command line runs, or None when ``command`` is not exactly one."""
    from cupcake.jail import runtime

    words = split_quoted(command)
    if not words or len(words) < 7 or words[1:3] != ["-I", "-S"]:
        return None
    if words[0] != runtime.interpreter():
        return None
    launcher = words[3]
    source = os.path.realpath(runtime.launch.__file__)
    if launcher not in (source, runtime.launcher()):
        return None
    rest = words[4:]
    while rest and rest[0].startswith("--"):
        if rest[0] == "--unshare-net":
            rest = rest[1:]
        elif rest[0] == "--agent" and len(rest) > 1:
            rest = rest[2:]
        else:
            return None
    if len(rest) != 3:
        return None
    spec, shell, user_command = rest
    jail_dir = os.path.join(root or "", ".cupcake", "jail") + os.sep
    if not root or not spec.startswith(jail_dir) or not spec.endswith(".spec") or "/" in spec[len(jail_dir) :]:
        return None
    if not (os.path.isabs(shell) or shell in launch_shells()):
        return None
    return user_command
