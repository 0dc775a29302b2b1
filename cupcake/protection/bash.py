"""Self-protection for Bash (layer 2, the hook): what a command line would change, read with
Cupcake's Bash reader (``cupcake.shell``), against the protected set (``hook.protected_paths``).

A command is blocked when, as bash would run it:

- a path it writes, removes, moves, links, re-modes or extracts into *could be* a protected path
  (a target the reader cannot resolve counts as any path it could be: an unknown directory, a
  variable, a glob), or is a directory holding one and the change is recursive; or it is the
  agent's settings directory itself (``rm -r .claude``, ``mv .claude x``); or an existing hard link
  to a policy file;
- git would rewrite the worktree (``git checkout .``, ``git restore .``, ``git stash``,
  ``git reset --hard``, ``git clean -fdx``, switching branches, merging…) and that worktree holds
  a protected path (``cupcake.toml`` is usually tracked: restoring over it is a change too);
- inline interpreter code (``python -c``, ``perl -e``, ``node -e``, ``ruby -e``, …) or a script fed
  to a shell or an interpreter names a protected path, could build a name (escapes, character
  codes, decoding, reversing, walking directories), or cannot be read at all;
- it runs Cupcake's own set-up (``cupcake init``, ``cupcake sync``, removing or reinstalling the
  ``cupcake`` package) or writes the installed package or its launcher;
- the reader could not finish (too long, too deep) and what it read writes or runs code.

Most commands are never read: ``quick_pass`` lets through, without importing the reader, a single
simple command of plain words whose program is a known reader (``ls -la``, ``git status``).
"""

from __future__ import annotations

import os
import sys

from cupcake.protection import hook

# ## The quick pass ###############################################################################

# Characters after which bash does nothing but split words: no quoting, expansion, globbing,
# redirection, separator, comment or tilde. A command made only of these is one simple command of
# literal words.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_./:,@%+^")
# Programs that write no file whatever their (plain) arguments, and the git subcommands likewise.
# Anything else is read: the reader knows writers, wrappers, shells, interpreters and git.
_READERS = frozenset(
    (
        "ls",
        "cat",
        "head",
        "tail",
        "wc",
        "grep",
        "egrep",
        "fgrep",
        "rg",
        "pwd",
        "echo",
        "which",
        "whoami",
        "id",
        "uname",
        "date",
        "file",
        "stat",
        "du",
        "df",
        "diff",
        "cmp",
        "true",
        "false",
        "nproc",
        "hostname",
        "tree",
        "basename",
        "dirname",
        "realpath",
        "readlink",
    )
)
# Programs that only read the files they are given, beyond the quick pass's: handing them a policy file is fine.
_ALSO_READ_ONLY = frozenset(
    ("less", "more", "bat", "jq", "yq", "xxd", "od", "hexdump", "strings", "md5sum", "sha1sum", "sha256sum")
    + ("sha512sum", "b2sum", "cksum", "column", "nl", "fold", "cut", "paste", "comm", "join", "cupcake")
)
_GIT_READERS = frozenset(("status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "describe", "shortlog"))


def quick_pass(command: str) -> bool:
    """True when ``command`` provably changes no file: one simple command of plain words (see
    ``_PLAIN``) whose program only reads. Sound by construction; anything else is read."""
    if len(command) > 512 or not _PLAIN.issuperset(command):
        return False
    words = command.split()
    if not words or "/" in words[0]:
        return False
    program = words[0]
    if program == "git":
        if len(words) < 2 or words[1] not in _GIT_READERS:
            return False
        return not any(w.startswith("-o") or w.startswith("--o") for w in words[2:])  # --output=FILE
    return program in _READERS


# ## The check ####################################################################################


def violation(command, cwd: str, root: str, env, protected: dict, ctx):
    """The block text when ``command`` could change a protected path (or runs Cupcake's set-up),
    else None."""
    if not isinstance(command, str) or not command or quick_pass(command):
        return None
    from cupcake.evaluate.patterns import of as run_patterns

    home = env.get("HOME") or None
    script = run_patterns(ctx).parsed(command, cwd, home, known_env(ctx, root))
    return Check(script, protected, ctx, root).run()


def known_env(ctx, root: str) -> dict:
    """What the agent's shell is known to hold: its project-directory variables (from its adapter)."""
    agent = getattr(ctx, "agent", None)
    names = getattr(agent, "PROJECT_DIR_ENV", None)
    if names is None:
        from cupcake.agents import adapter

        names = adapter().PROJECT_DIR_ENV
    return dict.fromkeys(names, root) if root else {}


class Check:
    __slots__ = ("script", "protected", "ctx", "root", "depth", "_candidates")

    def __init__(self, script, protected: dict, ctx, root: str, depth: int = 0):
        self.depth = depth
        self.script = script
        self.protected = protected
        self.ctx = ctx
        self.root = root
        self._candidates: list[tuple[str, tuple[str, object]]] | None = None

    def run(self):
        script = self.script
        for cmd in script.commands:
            found = self.setup(cmd) or self.handed(cmd)
            if found:
                return found
        writes = script.writes
        for write in writes:
            found = self.write(write)
            if found:
                return found
        for cmd, code in script.opaque:
            found = self.code(cmd, code)
            if found:
                return found
        if script.incomplete and (writes or script.opaque or script.incomplete == "too long to read"):
            return _text(
                f"Cupcake could not read all of this command ({script.incomplete}), and what it read "
                "changes files or runs code, so it cannot tell whether Cupcake's own files would change"
            )
        return None

    def handed(self, cmd):
        """A program whose effect the reader does not know, given a protected file by name
        (``prettier --write cupcake.toml``, ``python3 fix.py .cupcake/audit.log``): it could change it."""
        from cupcake.shell.writes import UNDERSTOOD

        program = cmd.program
        if not program or program in UNDERSTOOD or program in _READERS or program in _ALSO_READ_ONLY:
            return None
        base = cmd.cwd or self.root
        for word in cmd.words[1:]:
            if not word.known or not word.value:
                continue
            value = word.value.split("=", 1)[1] if word.value.startswith("-") and "=" in word.value else word.value
            if not value or value.startswith("-"):
                continue
            path = os.path.normpath(os.path.join(base, os.path.expanduser(value)))
            found = hook.classify(path, self.protected)
            if found:
                return _text(
                    f"this command ({_piece(cmd)}) hands {hook._display(path, self.ctx)} to `{program}`, and "
                    f"Cupcake does not know whether `{program}` changes the files it is given"
                )
        return None

    # ## writes ##

    def write(self, write):
        kind = write.kind
        if write.worktree:
            return self.worktree(write)
        if write.path is not None:
            return self.known(write)
        base = write.text.rstrip("/").rsplit("/", 1)[-1] or "x"
        inside = [(d + "/" + b, (hook.WORKDIR, None)) for d in self.protected["dirs"] for b in {base, "x"}]
        for path, found in self.candidates() + inside:
            if write.could_be(path):
                where = " in a directory Cupcake cannot know" if write.relative else ""
                target = write.pattern.replace("…", "...")
                return _text(
                    f"this command ({kind} to {target}{where}) could change "
                    f"{_what(path, found, self.ctx)}; Cupcake cannot tell which file it names, so it is blocked"
                )
        return None

    def known(self, write):
        protected = self.protected
        if write.kind == "find -delete" and not self.find_could_name(write.command):
            return None
        for form in write.forms():
            found = hook.classify(form, protected, ancestors=write.recursive)
            if found:
                return _text(hook._describe(write.path, found, self.ctx, write.kind))
            if form in protected["settings_dirs"]:
                return _text(
                    f"this command ({write.kind}) would change {hook._display(write.path, self.ctx)}, the directory of "
                    f"{hook._WHAT[hook.SETTINGS]}"
                )
            found = self.installed(form)
            if found:
                return _text(f"this command ({write.kind}) would change {found}")
        inodes = protected.get("inodes")
        if inodes:
            try:
                st = os.stat(write.path)
            except (OSError, ValueError):
                return None
            if (st.st_dev, st.st_ino) in inodes:
                return _text(
                    f"this command ({write.kind}) would change {hook._display(write.path, self.ctx)}, which is "
                    "the same file as a Cupcake policy file (a hard link)"
                )
        return None

    def worktree(self, write):
        top = _worktree_top(write.path) if write.path is not None else None
        if top is None and write.path is not None:
            if not any(c.program == "git" and c.subcommand() in ("init", "clone") for c in self.script.commands):
                return None  # not in a repository: git fails
            top = write.path  # a repository this command makes would start here
        for path, found in self.candidates():
            if top is None or path == top or path.startswith(top.rstrip("/") + "/"):
                shown = "an unknown directory" if top is None else hook._display(top, self.ctx) or "."
                if shown == self.root:
                    shown = "the project"
                text = (
                    f"this command ({write.kind}) may rewrite or remove files anywhere in the git worktree of "
                    f"{shown}, including {_what(path, found, self.ctx)}"
                )
                if write.kind in _BRINGS_FILES:
                    text += _BRINGS_FILES_NOTE
                return _text(text)
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
        names.update(("settings.json", "settings.local.json", "policy.cache"))
        return all(any(could_match(p, n, fold) for n in names) for p, fold in patterns)

    def candidates(self) -> list:
        """Every protected path as (absolute path, classify's answer), for targets not resolved:
        the files, the directories, the settings files (existing, and the usual names), a file
        each imports glob would pick up, the installed package."""
        if self._candidates is None:
            p = self.protected
            out: list[tuple[str, tuple[str, object]]] = [(f, (hook.POLICY, None)) for f in p["files"]]
            out += [(d, (hook.WORKDIR, None)) for d in p["dirs"]]
            for d in p["settings_dirs"]:
                names = {"settings.json", "settings.local.json"}
                try:
                    names.update(n for n in os.listdir(d) if n.startswith("settings") and n.endswith(".json"))
                except (OSError, ValueError):
                    pass
                out += [(d + "/" + n, (hook.SETTINGS, None)) for n in sorted(names)]
                out.append((d, (hook.SETTINGS, None)))
            for prefix, parts, entry in p["globs"]:
                sample = "/".join("x" if part == "**" else part.replace("*", "x").replace("?", "x") for part in parts)
                out.append((prefix + "/" + sample, (hook.IMPORT_GLOB, entry)))
            package, launcher = _installed()
            out.append((package, ("installed", None)))
            if launcher:
                out.append((launcher, ("installed", None)))
            self._candidates = out
        return self._candidates

    def installed(self, path: str):
        package, launcher = _installed()
        if path == package or path.startswith(package + "/"):
            return f"{path}, a file of the installed Cupcake package"
        if launcher and path == launcher:
            return f"{path}, the installed `cupcake` program"
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
            sub = next((a for a in args if not a.startswith("-")), None)
            if sub in ("init", "sync"):
                shown = " ".join(["cupcake", *args[args.index(sub) :]])
                what = (
                    "removes or replaces Cupcake's hooks" if sub == "sync" else "replaces Cupcake's policies and hooks"
                )
                return _text(f"`{shown}` {what}", _RUN)
            return None
        uninstalling = None
        if program in ("pip", "pip3") or (program.startswith("pip3.") and program[5:].replace(".", "").isdigit()):
            uninstalling = args
        elif program == "uv" and args[:1] == ["pip"]:
            uninstalling = args[1:]
        elif program in ("uv", "pipx") and args[:1] == ["tool"]:
            uninstalling = args[1:]
        elif program == "pipx":
            uninstalling = args
        if uninstalling:
            sub = next((a for a in uninstalling if not a.startswith("-")), None)
            if sub in ("uninstall", "install", "reinstall", "upgrade"):
                names = [a for a in uninstalling[uninstalling.index(sub) + 1 :] if not a.startswith("-")]
                if sub == "uninstall" and not names or any(_could_name_package(n) for n in names) or not cmd.known:
                    return _text(f"`{_piece(cmd)}` would remove or replace the installed Cupcake", _RUN)
        return None

    # ## code the reader does not follow ##

    def code(self, cmd, code):
        kind = code.kind
        if kind in ("script file", "sourced file"):
            return self.script_file(cmd, code)
        if not code.known or code.text is None:
            if kind in ("shell script", "stdin script"):
                what = "a shell script whose text Cupcake cannot know"
            else:
                what = f"{code.language} code whose text Cupcake cannot know"
            return _text(f"`{_piece(cmd)}` runs {what}, so Cupcake cannot tell whether it changes its own files")
        hint = _names_in_code(code.text, self.names())
        if hint is None and code.language in _GENERAL:
            for word in cmd.words[1:]:
                if word.value == code.text:
                    continue
                if not word.known or any(n in _squash(word.value) for n in self.names()):
                    hint = f"its argument {word.value!r}" if word.known else "an argument Cupcake cannot know"
                    break
            if hint is None and cmd.stdin_from is not None:
                for word in cmd.stdin_from.words:
                    if not word.known or any(n in _squash(word.value) for n in self.names()):
                        hint = "what is piped into it"
                        break
        if hint:
            return _text(
                f"`{_piece(cmd)}` runs {code.language} code that could change Cupcake's own files "
                f"({hint}); Cupcake does not run code to find out, so it is blocked"
            )
        return None

    def script_file(self, cmd, code):
        """``bash x.sh``/``source x.sh``: the script is read (a bounded size) and checked like a
        command line. One this command writes first, or one that cannot be read, is unknown."""
        name = code.text
        if not name or cmd.cwd is None and not name.startswith("/"):
            return _text(f"`{_piece(cmd)}` runs a script Cupcake cannot find, so it cannot check it")
        path = os.path.normpath(os.path.join(cmd.cwd or "/", name))
        for write in self.script.writes:
            if write.could_be(path):
                return _text(f"`{_piece(cmd)}` runs a script this same command writes, which Cupcake cannot read")
        try:
            with open(path, "rb") as handle:
                data = handle.read(_SCRIPT_LIMIT + 1)
        except (OSError, ValueError):
            return None  # no such script: bash fails too
        if len(data) > _SCRIPT_LIMIT or self.depth >= 2:
            return _text(f"`{_piece(cmd)}` runs a script too long for Cupcake to check")
        from cupcake.shell import parse

        text = data.decode("utf-8", "replace")
        inner = parse(text, cmd.cwd, cmd.home, known_env(self.ctx, self.root))
        nested = Check(inner, self.protected, self.ctx, self.root, self.depth + 1)
        nested._candidates = self._candidates
        found = nested.run()
        if found:
            return found.replace(PREFIX, f"{PREFIX}the script {name} run by `{_piece(cmd)}`: ", 1)
        return None

    def names(self) -> tuple:
        """Protected names as they could appear in code, squashed (``_squash``)."""
        out = {"cupcake"}
        p = self.protected
        for path in list(p["files"]) + list(p["dirs"]) + list(p["settings_dirs"]):
            base = _squash(path.rstrip("/").rsplit("/", 1)[-1])
            if len(base) >= 4 and base not in ("toml",):
                out.add(base)
        for prefix, _parts, _entry in p["globs"]:
            base = _squash(prefix.rstrip("/").rsplit("/", 1)[-1])
            if len(base) >= 4:
                out.add(base)
        package, _launcher = _installed()
        out.add(_squash(package.rsplit("/", 1)[-1]))
        return tuple(sorted(out))


_SCRIPT_LIMIT = 256 * 1024
# Interpreters whose code can name a file from its arguments or input (sed, awk and jq read theirs).
_GENERAL = frozenset(("python", "pypy", "perl", "node", "nodejs", "bun", "deno", "ruby", "php", "lua", "Rscript"))
# What lets code build a name the text does not show: escapes, character codes, decoding,
# reversing, or walking directories to reach every file.
_MARKERS = (
    "\\x",
    "\\u",
    "\\n{",
    "\\0",
    "\\1",
    "\\2",
    "\\3",
    "chr(",
    "chr ",
    "fromcharcode",
    "pack(",
    "%c",
    "base64",
    "b64",
    "atob",
    "unhexlify",
    "fromhex",
    "decode",
    "rot13",
    "codecs",
    "[::-1]",
    "reverse",
    "walk",
    "glob",
    "listdir",
    "scandir",
    "readdir",
    "opendir",
    "rmtree",
    "rm_rf",
    "rmsync",
    "dir[",
    "dir.",
    "environ",
    "getenv",
    "process.env",
    "$env",
    "%env",
    "env[",
)


def _names_in_code(text: str, names) -> str | None:
    """Why ``text`` could name a protected path: a protected name (quotes, concatenation and
    separators ignored: ``'cup' + 'cake.toml'`` names it) or a way to build one; None if neither."""
    squashed = _squash(text)
    for name in names:
        if name in squashed:
            return f"it mentions {name!r}"
    lowered = text.lower()
    for marker in _MARKERS:
        if marker in lowered:
            return f"it uses {marker.strip()!r}, which can build a file name Cupcake cannot see"
    return None


def _squash(text: str) -> str:
    """Letters and digits only, lower case: what survives any quoting and concatenation."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def _python(program: str) -> bool:
    return program.startswith("python") and all(c.isdigit() or c == "." for c in program[6:])


def _could_name_package(name: str) -> bool:
    from cupcake.shell import could_match

    base = name.split("[", 1)[0]
    for sep in ("==", ">=", "<=", "~=", "!=", ">", "<", "@", ";"):
        base = base.split(sep, 1)[0]
    base = base.strip().rstrip("/").rsplit("/", 1)[-1].lower()
    return base in ("cupcake", ".") or could_match(base, "cupcake") or "cupcake" in base


def _installed() -> tuple:
    """(the installed package's directory, the launcher that runs this process or None)."""
    import cupcake

    package = os.path.dirname(os.path.abspath(cupcake.__file__))
    launcher = None
    argv0 = sys.argv[0] if sys.argv else ""
    if argv0 and os.path.basename(argv0).startswith("cupcake"):
        launcher = os.path.abspath(argv0)
    return package, launcher


def _worktree_top(path: str):
    """The top of the git worktree holding ``path`` (a directory holding ``.git``), or None."""
    current = path.rstrip("/") or "/"
    for _ in range(64):
        try:
            if os.path.lexists(current + "/.git"):
                return current
        except (OSError, ValueError):
            return None
        if current == "/":
            return None
        current = current.rsplit("/", 1)[0] or "/"
    return None


def _what(path: str, found, ctx) -> str:
    kind, detail = found
    shown = hook._display(path, ctx)
    if kind == "installed":
        return f"{shown}, part of the installed Cupcake"
    if kind == hook.IMPORT_GLOB:
        return f'a file imported as a Cupcake policy file (imports "{detail}")'
    if kind == hook.SETTINGS and not path.endswith(".json"):
        return f"{shown}, the directory of {hook._WHAT[kind]}"
    return f"{shown}, {hook._WHAT[kind]}"


def _piece(cmd) -> str:
    """The simple command as it would run (shortened), for the block text."""
    text = " ".join(cmd.argv)
    return text if len(text) <= 120 else text[:117] + "..."


PREFIX = "Cupcake self-protection: "
# Commands that bring in another commit's files. Cupcake does not run git from the hook to see whether that
# commit holds another policy file: git reads settings the agent can write (.git/config's core.fsmonitor,
# diff and merge drivers, hooks) and runs the programs they name, and a pull's content is not known before it runs.
_BRINGS_FILES = frozenset(
    (
        "git checkout (switch)",
        "git switch",
        "git merge",
        "git pull",
        "git rebase",
        "git cherry-pick",
        "git revert",
        "git am",
    )
)
_BRINGS_FILES_NOTE = (
    "; the other commit may hold a different Cupcake policy, and Cupcake does not run git to check it "
    "(git runs programs named in settings an agent can write). Ask the user to run this git command themselves"
)
_RUN = "Agents may not run it: a person must make this change, so ask the user to do it."


def _text(reason: str, tail: str = hook._PERSON) -> str:
    return f"{PREFIX}{reason}. {tail}"


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
    if script.incomplete:
        return f" Cupcake could not read all of this command ({script.incomplete})."
    return None
