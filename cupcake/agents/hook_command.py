"""The command every agent's hook runs, the same for all six: ``<cupcake> run [--agent NAME] --event <its
event>``, and how a command some Cupcake wrote is recognised (cold path: sync, doctor, validate).

Which executable: a team-shared file (the project scope, committed) names ``cupcake``, found on the PATH
of whoever's agent runs it, so it holds no path of this machine; a personal file (local, user) names this
installation by its absolute path. Either way the agent may start without it (another PATH, a deleted
virtual environment): the shell then exits 126 or 127, which every agent takes as a non-blocking error,
and every call would go through unchecked. So on the events where a call can be stopped, the command
turns "cannot run" into a block: exit 2 with the reason on stderr, the blocking form of every one of
these agents. With fail_mode "closed" any failure blocks there (``--fail-closed`` also tells `cupcake run`
the mode before it imports anything). With the OS layer on (``--jail``, on the before-tool hook only)
any failure blocks there too, whatever fail_mode says: the call would otherwise run outside the jail.
Elsewhere (a stop, a notice) a block would only loop the agent or say nothing, so the plain command
runs and a failure is the agent's ordinary hook error.

The commands are POSIX ``sh`` (Claude Code, Codex, Gemini CLI, droid and Cursor run hook commands with
``sh -c``; Copilot CLI with bash)."""

from __future__ import annotations

import os
import re
import shlex
import sys

DEFAULT_NAME = "cupcake"
# Files committed with the project and shared with the team: they name `cupcake`, never a path.
SHARED_SCOPES = frozenset({"project"})
FAIL_CLOSED_FLAG = "--fail-closed"
# The OS layer (`cupcake sync --jail`, `--sandbox` where the agent's own sandbox is not the layer): Cupcake
# answers every shell call it allows with the same call run in its jail (``cupcake.jail``).
JAIL_FLAGS = ("--jail", "--jail-unshare-net")
# Canonical events where a hook's exit 2 stops something before it happens: a tool call, a permission,
# a prompt. At a stop a block only makes the agent go on (droid loops until its time-out).
BLOCKING_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit"})

_MISSING = (
    "Cupcake: this hook could not run {exe} (exit $s: not found or not executable), so the call is blocked. "
    "Install Cupcake where every shell finds it (with pipx or uv tool), "
    "then run cupcake doctor."
)
_FAILED = (
    "Cupcake: this hook could not run {exe} (exit $s), and fail_mode is 'closed': blocked until a person fixes it."
)
_JAILED = (
    "Cupcake: this hook could not run {exe} (exit $s), and its OS layer never lets a command run outside its "
    "jail: blocked until a person fixes it."
)
# fail_mode "open": only an executable that cannot start blocks; Cupcake's own answer (exit 0) stands.
OPEN_GUARD = ' || {{ s=$?; case $s in 126|127) echo "{missing}" >&2; exit 2;; esac; exit $s; }}'
# fail_mode "closed": Cupcake's own block (exit 2, its reason on stderr) stands; any other failure blocks.
CLOSED_GUARD = ' || {{ s=$?; [ $s -eq 2 ] || echo "{failed}" >&2; exit 2; }}'
# Tails older Cupcakes wrote: Claude Code's closed mode, and the other agents'.
_LEGACY_CLOSED = (
    re.compile(r"\s*\|\|\s*exit\s+2\s*$"),
    re.compile(r"\s*\|\|\s*\{\s*echo\s+'[^']*'\s*>&2;\s*exit\s+2;\s*\}\s*$"),
)
_OR = re.compile(r"\s*\|\|")
_PLAIN = re.compile(r"[A-Za-z0-9_./${}+:@%=,~-]+")


def installation_executable():
    """This installation's `cupcake` launcher: beside the running interpreter (the venv's bin)."""
    path = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), DEFAULT_NAME)
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


def command_word(executable: str) -> str:
    """The executable as written into a shell command line (quoted only when it has to be)."""
    return executable if _PLAIN.fullmatch(executable) else shlex.quote(executable)


def run_command(word: str, agent: str, agent_event: str, closed: bool = False, jail: str = "") -> str:
    """``<word> run [--agent NAME] --event E [--fail-closed] [--jail]``: the default agent needs no ``--agent``."""
    from cupcake.agents import DEFAULT

    named = "" if agent == DEFAULT else f" --agent {agent}"
    flags = (f" {FAIL_CLOSED_FLAG}" if closed else "") + (f" {jail}" if jail else "")
    return f"{word} run{named} --event {agent_event}{flags}"


def build(word: str, agent: str, agent_event: str, blocking: bool, closed: bool = False, jail: str = "") -> str:
    """The hook command for one event. ``blocking``: the canonical event is one of ``BLOCKING_EVENTS``;
    ``jail``: one of ``JAIL_FLAGS`` (the caller puts it on the before-tool hook only)."""
    command = run_command(word, agent, agent_event, closed, jail)
    if not blocking and not jail:
        return command
    exe = _shown(word)
    if jail:
        return command + CLOSED_GUARD.format(failed=_JAILED.format(exe=exe))
    if closed:
        return command + CLOSED_GUARD.format(failed=_FAILED.format(exe=exe))
    return command + OPEN_GUARD.format(missing=_MISSING.format(exe=exe))


def _shown(word: str) -> str:
    """The executable as the guard's message names it (inside double quotes: no quote, $ or backslash)."""
    return re.sub(r'["$`\\]', "", word) or DEFAULT_NAME


class Parsed:
    """A Cupcake hook command read back: its executable, agent, event, mode, and its guard."""

    __slots__ = ("executable", "agent", "event", "fail_closed", "guard", "jail")

    def __init__(self, executable: str, agent: str, event: str, fail_closed: bool, guard, jail: str = ""):
        self.executable = executable
        self.agent = agent
        self.event = event
        self.fail_closed = fail_closed
        self.guard = guard  # "open", "closed" (this Cupcake's guards), "legacy-closed", or None
        self.jail = jail  # the OS layer's flag, or ""

    @property
    def blocks_when_missing(self) -> bool:
        """A missing or unstartable executable blocks the call (exit 2), instead of letting it through."""
        return self.guard is not None

    @property
    def holds_closed(self) -> bool:
        """Any failure blocks, and `cupcake run` knows the mode before it imports anything."""
        return self.fail_closed and self.guard in ("closed", "legacy-closed")


def parse(command) -> Parsed | None:
    """The command read as ``<exe> run [--agent A] --event E [--fail-closed]`` and one of the known
    tails, or None when it is not such a command."""
    if not isinstance(command, str):
        return None
    body, guard = command.rstrip(), None
    cut = _OR.search(body)
    if cut is not None:
        body, tail = body[: cut.start()], body[cut.start() :]
        guard = _guard_of(tail)
        if guard is None:
            return None
    try:
        argv = shlex.split(body)
    except ValueError:
        return None
    if len(argv) < 4 or argv[1] != "run":
        return None
    from cupcake.agents import DEFAULT

    agent, event, closed, jail, i = DEFAULT, None, False, "", 2
    while i < len(argv):
        if argv[i] in ("--agent", "--event") and i + 1 < len(argv):
            if argv[i] == "--agent":
                agent = argv[i + 1]
            else:
                event = argv[i + 1]
            i += 2
        elif argv[i] == FAIL_CLOSED_FLAG:
            closed, i = True, i + 1
        elif argv[i] in JAIL_FLAGS:
            jail, i = argv[i], i + 1
        else:
            return None
    if not event:
        return None
    return Parsed(argv[0], agent, event, closed, guard, jail)


def _guard_of(tail: str):
    if tail.startswith(" || { s=$?; case $s in 126|127) echo ") and tail.endswith(" >&2; exit 2;; esac; exit $s; }"):
        return "open"
    if tail.startswith(" || { s=$?; [ $s -eq 2 ] || echo ") and tail.endswith(" >&2; exit 2; }"):
        return "closed"
    if any(pattern.fullmatch(tail) for pattern in _LEGACY_CLOSED):
        return "legacy-closed"
    return None


def is_cupcake(command, agent: str, also=()) -> bool:
    """Whether a hook command is a Cupcake run for ``agent`` (any executable named cupcake, or one of ``also``)."""
    parsed = parse(command)
    if parsed is None or parsed.agent != agent:
        return False
    exe = parsed.executable
    return exe == DEFAULT_NAME or exe.endswith("/" + DEFAULT_NAME) or exe in also


def jail_of(commands) -> str:
    """The OS layer's flag on any of these Cupcake hook commands, or ""."""
    for command in commands:
        parsed = parse(command)
        if parsed is not None and parsed.jail:
            return parsed.jail
    return ""


def executable_of(command):
    """The executable a Cupcake hook command names, or None."""
    parsed = parse(command)
    return parsed.executable if parsed else None
