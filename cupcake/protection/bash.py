"""Self-protection for Bash (layer 2, the hook): what a command line would change and read, read
with Cupcake's Bash reader (``cupcake.shell``) and its registry of programs (``cupcake.programs``),
against the protected set (``cupcake.protection.protected_set``).

The hook decides only what it fully understands. A command is blocked when, as bash would run it:

- a path it writes, removes, moves, links, re-modes or extracts into *could be* a protected path
  (resolved the way the kernel would; a target the reader cannot pin down counts as any path it
  could be), or is a directory holding one and the change is recursive — unless what is poured in
  can be listed (an archive's members, a directory's files, a patch's files: ``contents``) and
  none is protected; or it is the agent's settings directory itself; or a hard link to a policy file;
- git would move the worktree to another committed state and git, asked safely, cannot show that
  the protected files are the same in both (``git_states``);
- it reads a secret Cupcake relies on (the cache key: ``protected["secrets"]``);
- inline code or a script it feeds an interpreter names a protected path, builds a name the text
  does not show, or cannot be read at all;
- a program the reader cannot see into is handed a protected path by name;
- it runs Cupcake's own set-up (``cupcake init``, ``cupcake sync``, removing or reinstalling the
  ``cupcake`` package) or writes the installed package or its launcher;
- the reader could not follow it: a construct it does not model (code hidden as data, aliases,
  ``trap`` text it cannot see…), a program that is not written out, a syntax error, a bound passed.
  The block says what was not understood and how to write the command plainly.

Most commands are never read: ``quick_pass`` lets through, without importing the reader, a single
simple command of plain words whose program only reads (``ls -la``, ``git status``).
"""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.protection import protected_set as pset
from cupcake.protection.install import running
from cupcake.protection.protected_set import PREFIX, _piece, _text, _what
from cupcake.protection.quick import quick_pass
from cupcake.resolve import realpath

# ## The check ####################################################################################


def violation(command, cwd: str, root: str, env, protected: dict, ctx):
    """The block text when ``command`` could change a protected path, read a secret, run Cupcake's
    set-up, or cannot be read; else None."""
    if not isinstance(command, str) or not command or quick_pass(command):
        return None
    from cupcake.evaluate.patterns import of as run_patterns

    home = env.get("HOME") or None
    script = run_patterns(ctx).parsed(command, cwd, home, known_env(ctx, root))
    return Check(script, protected, ctx, root).run()


def known_env(ctx, root: str) -> dict:
    """What the agent's shell is known to hold (``cupcake.shell.known_env``): its project-directory
    variables (from its adapter), and what its environment, as the hook sees it, holds."""
    from cupcake.shell import known_env as agent_env

    agent = getattr(ctx, "agent", None)
    names = getattr(agent, "PROJECT_DIR_ENV", None)
    if names is None:
        from cupcake.agents import adapter

        names = adapter().PROJECT_DIR_ENV
    return agent_env(names, root, getattr(ctx, "env", None))


def secrets(protected: dict, env, resolved: dict | None = None) -> list:
    """The paths whose content Cupcake relies on staying secret: the protected set's ``secrets``
    and the policy cache's key (until every protected set carries it). ``resolved``: folders already
    resolved in this run (``cupcake.resolve``)."""
    found = [p for p in protected.get("secrets", ()) if isinstance(p, str)]
    try:
        from cupcake.stores.user_secret import secret_path

        key = secret_path(env or {})
    except Exception:  # the cache module cannot say: the protected set's list stands
        key = None
    if key:
        for form in (os.path.normpath(key), realpath(key, {} if resolved is None else resolved)):
            if form not in found:
                found.append(form)
    return found


class Check:
    __slots__ = ("script", "protected", "ctx", "root", "depth", "_candidates", "_secrets", "_git")

    def __init__(self, script, protected: dict, ctx, root: str, depth: int = 0):
        self.depth = depth
        self.script = script
        self.protected = protected
        self.ctx = ctx
        self.root = root
        self._candidates: list[tuple[str, tuple[str, object]]] | None = None
        self._secrets: list | None = None
        self._git: list = []  # the git commands asked of git so far

    def run(self):
        """The first reason to block, in the order a person would want to hear it."""
        script = self.script
        for cmd in script.commands:
            found = self.setup(cmd) or self.handed(cmd)
            if found:
                return found
        moved = False
        for cmd in script.redirect_only + script.commands:
            for write in cmd.writes:
                found = self.write(write, moved)
                if found:
                    return _in_script(found, write.command)
            moved = moved or _moves_branches(cmd)
        for read in script.reads:
            found = self.read(read)
            if found:
                return found
        for cmd, code in script.opaque:
            found = self.code(cmd, code)
            if found:
                return found
        return self.unread()

    def unread(self):
        """What the reader could not follow, said with how to write it plainly."""
        script = self.script
        if script.unknowns:
            first = script.unknowns[0]
            return _plain(f"{first.what}", first.how)
        if script.syntax_errors:
            return _plain(
                f"bash would stop at a syntax error ({script.syntax_errors[0]})", "check the quoting and the brackets"
            )
        if script.incomplete:
            return _plain(f"Cupcake could not read all of it ({script.incomplete})", "split it into shorter commands")
        return None

    # ## programs the reader cannot see into ##

    def handed(self, cmd):
        """A program whose effect the reader does not know — not in the registry, not the program
        its name says, or running a script the reader does not read — given a protected file (or a
        secret, or a pattern that could name one): it could change (or leak) it."""
        if not _blind(cmd):
            return None
        program = cmd.program
        base = cmd.cwd or self.root
        for word in cmd.words[1:] + tuple(r.target for r in cmd.redirects if r.op in ("<", "<>")):
            found = self._named(word, base)
            if found:
                return _text(
                    f"this command ({_piece(cmd)}) hands {found} to `{program}`, and "
                    f"Cupcake does not know whether `{program}` changes the files it is given"
                )
        return None

    def _named(self, word, base: str):
        if not word.value:
            return None
        value = word.value.split("=", 1)[1] if word.value.startswith("-") and "=" in word.value else word.value
        if word.known and not word.glob:
            if not value or value.startswith("-"):
                return None
            path = os.path.normpath(os.path.join(base, os.path.expanduser(value)))
            for form in (path, realpath(path, self._resolved())):
                if pset.classify(form, self.protected) or form in self.secrets():
                    return pset._display(path, self.ctx)
            return None
        from cupcake.shell.words import SUB

        if word.glob or (not word.known and SUB in word.pattern()):  # a pattern, or paths found under a directory
            from cupcake.shell.model import Write

            probe = Write("glob", word, base)
            for path, _found in self.candidates():
                if probe.could_be(path):
                    return pset._display(path, self.ctx)
        return None

    # ## writes ##

    def write(self, write, moved: bool = False):
        if write.worktree:
            return self.worktree(write, moved)
        effect = write.effect
        if effect is not None and effect.tag == "into" and effect.language not in (None, "git"):
            return self.poured(write)
        if write.path is not None:
            return self.known(write) or self.git_code(write)
        return self.unpinned(write)

    def git_code(self, write):
        """A git hook or git's own settings: git runs what they name, later, where Cupcake cannot see."""
        for form in write.forms():
            if _GIT_CODE_DIR in form or form.endswith(_GIT_CODE_FILES) or form == self._home(".gitconfig"):
                return _text(
                    f"this command ({write.kind}) writes {pset._display(write.path, self.ctx)}, which makes git run "
                    "programs Cupcake never sees",
                    "Agents may not change it: set up git hooks and settings through git, or ask the user.",
                )
        return None

    def _home(self, name: str) -> str:
        home = (getattr(self.ctx, "env", None) or {}).get("HOME") or "/nonexistent"
        return home.rstrip("/") + "/" + name

    def unpinned(self, write):
        base = write.text.rstrip("/").rsplit("/", 1)[-1] or "x"
        inside = [(d + "/" + b, (pset.WORKDIR, None)) for d in self.protected["dirs"] for b in {base, "x"}]
        for path, found in self.candidates() + inside:
            if write.could_be(path):
                where = " in a directory Cupcake cannot know" if write.relative else ""
                target = write.pattern.replace("…", "...")
                return _text(
                    f"this command ({write.kind} to {target}{where}) could change "
                    f"{_what(path, found, self.ctx)}; Cupcake cannot tell which file it names, so it is blocked"
                )
        return None

    def known(self, write):
        protected = self.protected
        if write.kind == "find -delete" and not self.find_could_name(write.command):
            return None
        nested = None  # a cupcake.toml below the root by its name: said only if no form names more
        for form in write.forms():
            found = pset.classify(form, protected, ancestors=write.recursive)
            if found and found[0] == pset.NESTED_POLICY:
                nested = nested or _text(pset._describe(form, found, self.ctx, write.kind), _tail(write))
            elif found:  # (as the kernel reaches it: ``d/d/cupcake.toml`` through a link is cupcake.toml)
                return _text(pset._describe(form, found, self.ctx, write.kind), _tail(write))
            if form in protected["settings_dirs"]:
                return _text(
                    f"this command ({write.kind}) would change {pset._display(write.path, self.ctx)}, the directory of "
                    f"{pset._WHAT[pset.SETTINGS]}"
                )
            found = self.installed(form)
            if found:
                return _text(f"this command ({write.kind}) would change {found}")
        if nested:
            return nested
        inodes = protected.get("inodes")
        if inodes:
            try:
                st = os.stat(write.path)
            except (OSError, ValueError):
                return None
            if (st.st_dev, st.st_ino) in [tuple(i) for i in inodes]:
                return _text(
                    f"this command ({write.kind}) would change {pset._display(write.path, self.ctx)}, which is "
                    "the same file as a Cupcake policy file (a hard link)"
                )
        return None

    def find_could_name(self, cmd) -> bool:
        """Whether ``find … -name P -delete`` could match a protected name: only a plain conjunction
        of ``-name``/``-iname`` tests is trusted to narrow it (``-o``, ``!``, ``-path``… are not)."""
        if cmd is None:
            return True
        words = cmd.words
        patterns = []
        for k, word in enumerate(words):
            value = word.value
            if not word.known or value in ("-o", "-or", "!", "-not", ",") or value.endswith("regex") or "path" in value:
                return True
            if value in ("-name", "-iname") and k + 1 < len(words):
                if not words[k + 1].known:
                    return True
                patterns.append((words[k + 1].value, value == "-iname"))
        if not patterns:
            return True
        from cupcake.shell import could_match

        names = {path.rstrip("/").rsplit("/", 1)[-1] for path, _found in self.candidates()}
        names.update(self.protected.get("settings_names", ()))
        names.add("policy.cache")
        return all(any(could_match(p, n, fold) for n in names) for p, fold in patterns)

    def candidates(self) -> list:
        """Every protected path as (absolute path, classify's answer), for targets not resolved:
        the files, the directories, the settings files (existing, and the usual names), a file
        each imports glob would pick up, the installed package."""
        if self._candidates is None:
            p = self.protected
            out: list[tuple[str, tuple[str, object]]] = [(f, (pset.POLICY, None)) for f in p["files"]]
            out += [(d, (pset.WORKDIR, None)) for d in p["dirs"]]
            for d in p["settings_dirs"]:
                names = set(p.get("settings_names", ()))
                try:
                    names.update(n for n in os.listdir(d) if n.startswith("settings") and n.endswith(".json"))
                except (OSError, ValueError):
                    pass
                out += [(d + "/" + n, (pset.SETTINGS, None)) for n in sorted(names)]
                out.append((d, (pset.SETTINGS, None)))
            out += [(a, (pset.AGENT_CONFIG, None)) for a in p.get("agent_config", ())]
            for prefix, parts, entry in p["globs"]:
                sample = "/".join("x" if part == "**" else part.replace("*", "x").replace("?", "x") for part in parts)
                out.append((prefix + "/" + sample, (pset.IMPORT_GLOB, entry)))
            package, launcher = running()
            out.append((package, ("installed", None)))
            if launcher:
                out.append((launcher, ("installed", None)))
            self._candidates = out
        return self._candidates

    def installed(self, path: str):
        package, launcher = running()
        if path == package or path.startswith(package + "/"):
            return f"{path}, a file of the installed Cupcake package"
        if launcher and path == launcher:
            return f"{path}, the installed `cupcake` program"
        return None

    def worktree(self, write, moved: bool):
        """git moving the worktree of a protected path (``git_states``)."""
        from cupcake.protection.git_states import worktree_block

        return worktree_block(self, write, moved)

    def poured(self, write):
        """An extraction, a copy of a directory's contents, a patch: its files, when they can be listed."""
        from cupcake.protection.contents import poured_block

        return poured_block(self, write)

    def code(self, cmd, code):
        """Code the reader does not follow (inline code, a script it cannot see): ``code_names``."""
        from cupcake.protection.code_names import code_block

        return code_block(self, cmd, code)

    # ## reads ##

    def secrets(self) -> list:
        if self._secrets is None:
            self._secrets = secrets(self.protected, getattr(self.ctx, "env", None), self._resolved())
        return self._secrets

    def _resolved(self) -> dict:
        """The folders the reading resolved (``Script.resolved``), shared with this check's own paths."""
        return self.script.resolved if self.script is not None else {}

    def read(self, read):
        """A read of a secret Cupcake relies on (the cache key, the agents' transcripts): by its path, a
        link to it, a directory holding it read whole, or a pattern that could name it (or name something
        in a secret folder)."""
        in_secret = pset.in_secret
        for secret in self.secrets():
            hit = False
            folder = secret.endswith("/")
            if read.path is not None:
                for form in read.forms():
                    if in_secret(form, (secret,)) or (read.recursive and secret.startswith(form.rstrip("/") + "/")):
                        hit = True
            elif read.tokens != [3]:  # a path not written out at all: the operating system's part
                hit = read.could_be(secret.rstrip("/")) or (folder and _could_lie_in(read, secret))
            if hit:
                what = "an agent's session transcripts, which hold the approval codes shown to the person and"
                return _text(
                    f"this command ({read.kind}) reads {pset._display(secret.rstrip('/'), self.ctx)}, "
                    + (
                        f"{what} must stay unreadable to agents"
                        if folder
                        else "the key Cupcake seals its policy cache with, which must stay unreadable to agents"
                    ),
                    _NO_READ,
                )
        return None

    # ## Cupcake's own set-up ##

    def setup(self, cmd):
        argv = cmd.argv
        program = cmd.program
        args = list(argv[1:])
        if _python(program) and len(args) >= 2 and args[0] == "-m":
            program, args = args[1].split(".", 1)[0], args[2:]
        elif _python(program) and args[:1] and args[0].startswith("-m") and len(args[0]) > 2:
            program, args = args[0][2:].split(".", 1)[0], args[1:]
        if program == "cupcake":
            from cupcake.protection.person_commands import person_only

            found = person_only(args)
            return _text(f"`{found[0]}` {found[1]}", _RUN) if found else None
        installing = _installer(program, args)
        if installing:
            sub = next((a for a in installing if not a.startswith("-")), None)
            if sub in ("uninstall", "install", "reinstall", "upgrade", "sync", "add", "remove"):
                from cupcake.protection.person_commands import names_cupcake

                names = [a for a in installing[installing.index(sub) + 1 :] if not a.startswith("-")]
                if sub == "uninstall" and not names or any(names_cupcake(n, cmd.cwd) for n in names) or not cmd.known:
                    return _text(f"`{_piece(cmd)}` would remove or replace the installed Cupcake", _RUN)
        return None

    # ## code the reader does not follow ##


def _could_lie_in(read, folder: str) -> bool:
    """Whether a read whose path is a pattern could name something in ``folder`` (ending in "/"): some
    leading part of the pattern matches the folder (``*`` never crosses a "/"; an unknown part may)."""
    from cupcake.shell.words import match

    return match(read.tokens, folder, read.fold, prefix=True, ends=read.literal_ends())


# git subcommands that move no branch, tag or HEAD (a later check in the same line sees the same commits).
_GIT_READ_ONLY = frozenset(
    ("status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "ls-tree", "describe", "shortlog", "config")
    + ("remote", "grep", "add", "rm", "mv", "restore", "cat-file", "count-objects", "check-ignore", "help", "version")
)


def _moves_branches(cmd) -> bool:
    """Whether a git command may move a branch or a ref (so a later check would see stale commits)."""
    reading = cmd.reading
    if reading is None or cmd.program != "git":
        return False
    sub = reading.path[1] if len(reading.path) > 1 else None
    if sub is None:
        return bool(reading.operands)  # a subcommand the registry does not know: it may
    return sub not in _GIT_READ_ONLY


def _in_script(text: str, cmd) -> str:
    """A block found inside a script the command runs says which script."""
    scripts = [v[len("script ") :] for v in (cmd.via if cmd is not None else ()) if v.startswith("script ")]
    if not scripts:
        return text
    return text.replace(PREFIX, f"{PREFIX}in the script {scripts[-1]}: ", 1)


def _blind(cmd) -> bool:
    """Whether what ``cmd`` does with its arguments is beyond the reader."""
    reading = cmd.reading
    if reading is None or not cmd.identified:
        return True
    if reading.top.subcommands and len(reading.path) == 1 and reading.operands:
        return True  # a subcommand the registry does not know (an alias, a plugin)
    return any(o.kind == "script file" for o in cmd.opaque)


def _python(program: str) -> bool:
    return program.startswith("python") and all(c.isdigit() or c == "." for c in program[6:])


def _installer(program: str, args: list):
    """The words after a package tool that may install or remove Cupcake (``pip``, ``uv pip``…)."""
    if program in ("pip", "pip3") or (program.startswith("pip3.") and program[5:].replace(".", "").isdigit()):
        return args
    if program == "uv" and args[:1] == ["pip"]:
        return args[1:]
    if program in ("uv", "pipx") and args[:1] == ["tool"]:
        return args[1:]
    if program == "pipx":
        return args
    return None


_GIT_CODE_DIR = "/.git/hooks/"
_GIT_CODE_FILES = ("/.git/config", "/.config/git/config", "/.git/info/attributes")
_RUN = "Agents may not run it: a person must make this change, so ask the user to do it."
_NO_READ = "Agents may not read it."


_MOUNTED = (
    "A container writes what is mounted into it, where Cupcake cannot see: mount it read-only (`:ro`), or only "
    "the folders the container needs."
)


def _tail(write) -> str:
    """What the agent can do instead: for a folder mounted into a container, mount it read-only."""
    kind = write.kind
    return _MOUNTED if kind.endswith((" -v", " --mount")) else pset._PERSON


def _plain(what: str, how: str) -> str:
    """A command the reader could not follow: what it could not read, and how to write it."""
    return (
        f"{PREFIX}Cupcake cannot tell what this command does: {what}. Write it plainly so Cupcake can "
        f"check it ({how}); it runs as soon as Cupcake can see it leaves Cupcake's own files alone."
    )


def project_write(ctx):
    """ " This command (…) would change …." when the Bash command of this call would change a file
    of the project (or the reader cannot tell which file it changes), else None."""
    command = ctx.incoming.tool_input.get("command") if isinstance(ctx.incoming.tool_input, dict) else None
    if not isinstance(command, str) or not command:
        return None
    if quick_pass(command):
        return None
    from cupcake.evaluate.patterns import of as run_patterns

    root = ctx.root.rstrip("/") or "/"
    cwd = ctx.incoming.cwd if isinstance(ctx.incoming.cwd, str) and ctx.incoming.cwd.startswith("/") else root
    script = run_patterns(ctx).parsed(command, cwd, ctx.env.get("HOME") or None, known_env(ctx, root))
    for write in script.writes:
        path = write.path
        if path is None:
            return f" This command ({write.kind} to {write.pattern.replace('…', '...')}) could change any file."
        inside = path == root or path.startswith(root + "/")
        holds = (write.recursive or write.worktree) and (root + "/").startswith(path.rstrip("/") + "/")
        if inside or holds:
            shown = path[len(root) + 1 :] if path.startswith(root + "/") else path
            return f" This command ({write.kind}) would change {shown or '.'}."
    if script.unknowns:
        return f" Cupcake could not read all of this command ({script.unknowns[0].what})."
    if script.incomplete:
        return f" Cupcake could not read all of this command ({script.incomplete})."
    return None
