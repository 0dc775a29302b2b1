"""The paths a shell command plainly writes, removes or re-points (for self-protection).

A small POSIX shell reader, without ``re`` or ``shlex`` (both import ``re``): quotes, escapes,
``;``/``&&``/``||``/``|``/``&``/newlines, ``$(…)``, backticks and ``sh -c '…'`` (each read as
commands of their own), here-documents (skipped), ``cd`` between commands, ``~``, ``$HOME``,
``$CLAUDE_PROJECT_DIR`` and ``$PWD``. Other expansions are unknown, so a word holding one is not
a path this can name.

What counts as changing a path: any output redirection (``>``, ``>>``, ``&>``, ``>|``, ``<>``);
``rm``, ``rmdir``, ``unlink``, ``shred``, ``mv``, ``chmod``/``chown``/``chgrp``, ``git rm`` (and
whatever directory holds the path); ``cp``/``install``/``rsync`` onto it; ``ln`` naming it;
``tee``, ``truncate``, ``touch``, ``sed -i``, ``perl -i``, ``dd of=``, ``git checkout``/``restore``
of it; and ``cupcake sync --uninstall`` (or ``--command``). This is about commands that *plainly*
target a path: an agent determined to hide a write in a script is not stopped here.
"""

from __future__ import annotations

import os

_SEPARATORS = {";", "&", "|", "&&", "||", "|&", ";;", "\n", "(", ")"}
_REDIRECT_WRITE = {">", ">>", ">|", "&>", "&>>", "<>", ">&"}
_REDIRECT_OTHER = {"<", "<<", "<<-", "<<<", "<&"}
_RESERVED = {"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "{", "}", "!", "time"}
_WRAPPERS = {
    "sudo",
    "doas",
    "command",
    "builtin",
    "exec",
    "nohup",
    "nice",
    "ionice",
    "stdbuf",
    "timeout",
    "env",
    "xargs",
}
_WRAPPER_ARGS = {  # options that take a value, per wrapper
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"},
    "doas": {"-u", "-C"},
    "exec": {"-a"},
    "nice": {"-n"},
    "ionice": {"-c", "-n", "-p"},
    "env": {"-u", "-C", "-S", "--unset", "--chdir"},
    "timeout": {"-k", "-s", "--kill-after", "--signal"},
    "xargs": {"-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a"},
}
_SHELLS = {"sh", "bash", "zsh", "dash", "ksh"}
_LAUNCHERS = {
    "uvx",
    "uv",
    "pipx",
}  # `uvx cupcake …`, `uv run cupcake …`, `pipx run cupcake …` (and `python -m cupcake`)
_MAX_DEPTH = 4  # sh -c 'sh -c …' nesting read
_MAX_NESTING = 16  # $( $( … ) ) nesting read


class Target:
    """A path a command would change: as written (absolute, normalised) and how."""

    __slots__ = ("path", "kind", "removes")

    def __init__(self, path: str, kind: str, removes: bool = False):
        self.path = path
        self.kind = kind  # what does it: "redirection", "rm", "sed -i", … or "uninstall"
        self.removes = removes  # removing or moving a directory takes what it holds along

    def forms(self):
        """The path as written and with symlinks resolved (a link to a protected file is one)."""
        yield self.path
        real = os.path.realpath(self.path)
        if real != self.path:
            yield real

    def __repr__(self) -> str:
        return f"Target({self.path!r}, {self.kind!r}, removes={self.removes})"


class _Word:
    __slots__ = ("text", "glob", "unknown")

    def __init__(self):
        self.text = []
        self.glob = False  # an unquoted * ? [ : a pattern
        self.unknown = False  # holds an expansion whose value is not known here

    def value(self) -> str:
        return "".join(self.text)


def targets(command: str, cwd: str, home: str, root: str, depth: int = 0) -> list:
    """Every path ``command`` plainly changes, in order (and the uninstall, as ``kind="uninstall"``)."""
    simple = []
    _Lexer(command, home, root, simple, depth).run()
    found: list = []
    for words, redirects in simple:
        cwd = _analyse(words, redirects, cwd, home, root, found, depth)
    return found


# ## Reading the command ##########################################################################


class _Lexer:
    """Splits a command into simple commands: (words, [(redirect operator, word)])."""

    def __init__(self, text: str, home: str, root: str, out: list, depth: int):
        self.text = text
        self.pos = 0
        self.env = {"HOME": home, "CLAUDE_PROJECT_DIR": root}
        self.home = home
        self.out = out
        self.depth = depth
        self.heredocs: list = []
        self.nesting = 0  # how deep inside $(…), `…` and <(…) this reader is

    def run(self, stop: str = "") -> None:
        words: list = []
        redirects: list = []
        pending = None  # a redirect operator waiting for its word
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if stop and ch == stop:
                self.pos += 1
                break
            if ch in " \t":
                self.pos += 1
                continue
            if ch == "\\" and text.startswith("\\\n", self.pos):
                self.pos += 2
                continue
            if ch == "#" and self._at_word_start():
                while self.pos < len(text) and text[self.pos] != "\n":
                    self.pos += 1
                continue
            op = self._operator()
            if op is not None:
                if op in _SEPARATORS:
                    self._emit(words, redirects)
                    words, redirects, pending = [], [], None
                    if op == "\n":
                        self._skip_heredocs()
                    continue
                pending = op
                continue
            word = self._word()
            if pending is not None:
                if pending in ("<<", "<<-"):
                    self.heredocs.append((word.value(), pending == "<<-"))
                else:
                    redirects.append((pending, word))
                pending = None
            elif word.text or word.unknown:
                words.append(word)
        self._emit(words, redirects)

    def _at_word_start(self) -> bool:
        return self.pos == 0 or self.text[self.pos - 1] in " \t\n;&|()"

    def _emit(self, words, redirects) -> None:
        if words or redirects:
            self.out.append((words, redirects))

    def _operator(self):
        text, pos = self.text, self.pos
        # a file descriptor number right before a redirect: 2>, 1>>
        end = pos
        while end < len(text) and text[end].isdigit():
            end += 1
        if end > pos and end < len(text) and text[end] in "<>" and (pos == 0 or text[pos - 1] in " \t\n;&|()"):
            pos = end
        for op in (
            "&>>",
            "<<<",
            "<<-",
            "&&",
            "||",
            "|&",
            ";;",
            ">>",
            ">|",
            "&>",
            "<>",
            ">&",
            "<&",
            "<<",
            ">",
            "<",
            ";",
            "&",
            "|",
            "\n",
            "(",
            ")",
        ):
            if text.startswith(op, pos):
                if op in ("<", ">") and text.startswith("(", pos + 1):  # <(…) / >(…): process substitution
                    self.pos = pos + 2
                    self._child(self.text).nested(self)
                    return ";"
                self.pos = pos + len(op)
                return op
        return None

    def _child(self, text: str) -> _Lexer:
        child = _Lexer(text, self.home, self.env["CLAUDE_PROJECT_DIR"], self.out, self.depth)
        child.nesting = self.nesting + 1
        return child

    def nested(self, parent) -> None:
        """Read a ``$(…)``/``<(…)`` body as commands of its own, then move ``parent`` past it.
        Past ``_MAX_NESTING`` levels the body is skipped, not read (no recursion without bound)."""
        self.pos = parent.pos
        if self.nesting > _MAX_NESTING:
            depth = 1
            while self.pos < len(self.text) and depth:
                depth += {"(": 1, ")": -1}.get(self.text[self.pos], 0)
                self.pos += 1
        else:
            self.run(stop=")")
        parent.pos = self.pos

    def _word(self) -> _Word:
        word = _Word()
        text = self.text
        start = self.pos
        while self.pos < len(text):
            ch = text[self.pos]
            if ch in " \t\n;&|()<>":
                break
            if ch == "\\":
                if self.pos + 1 < len(text):
                    word.text.append(text[self.pos + 1])
                self.pos += 2
            elif ch == "'":
                end = text.find("'", self.pos + 1)
                end = len(text) if end < 0 else end
                word.text.append(text[self.pos + 1 : end])
                self.pos = end + 1
            elif ch == '"':
                self._double_quoted(word)
            elif ch == "$":
                self._dollar(word, quoted=False)
            elif ch == "`":
                self._backtick(word)
            else:
                if ch in "*?[":
                    word.glob = True
                if ch == "~" and self.pos == start and self.home:
                    following = text[self.pos + 1 : self.pos + 2]
                    if following in ("", "/") or following in " \t\n;&|()<>":
                        word.text.append(self.home)
                        self.pos += 1
                        continue
                word.text.append(ch)
                self.pos += 1
        return word

    def _double_quoted(self, word: _Word) -> None:
        text = self.text
        self.pos += 1
        while self.pos < len(text) and text[self.pos] != '"':
            ch = text[self.pos]
            if ch == "\\" and self.pos + 1 < len(text) and text[self.pos + 1] in '"\\$`\n':
                word.text.append(text[self.pos + 1])
                self.pos += 2
            elif ch == "$":
                self._dollar(word, quoted=True)
            elif ch == "`":
                self._backtick(word)
            else:
                word.text.append(ch)
                self.pos += 1
        self.pos += 1

    def _dollar(self, word: _Word, quoted: bool) -> None:
        text = self.text
        nxt = text[self.pos + 1 : self.pos + 2]
        if text.startswith("$((", self.pos):  # arithmetic: a number, not a path
            depth, self.pos = 0, self.pos + 1
            while self.pos < len(text):
                depth += {"(": 1, ")": -1}.get(text[self.pos], 0)
                self.pos += 1
                if depth == 0:
                    break
            word.unknown = True
        elif nxt == "(":
            self.pos += 2
            self._child(text).nested(self)
            word.unknown = True
        elif nxt == "'" and not quoted:  # $'…' (ANSI-C quoting)
            end = self.pos + 2
            chunk = []
            while end < len(text) and text[end] != "'":
                if text[end] == "\\" and end + 1 < len(text):
                    chunk.append(text[end : end + 2])
                    end += 2
                else:
                    chunk.append(text[end])
                    end += 1
            value = "".join(chunk)
            if "\\" in value:
                word.unknown = True
            word.text.append(value)
            self.pos = end + 1
        elif nxt == "{":
            end = text.find("}", self.pos)
            end = len(text) if end < 0 else end
            self._variable(word, text[self.pos + 2 : end])
            self.pos = end + 1
        elif nxt and (nxt.isalnum() or nxt == "_"):
            end = self.pos + 1
            while end < len(text) and (text[end].isalnum() or text[end] == "_"):
                end += 1
            self._variable(word, text[self.pos + 1 : end])
            self.pos = end
        elif nxt and nxt in "?$!#*@-0123456789":
            word.unknown = True
            self.pos += 2
        else:
            word.text.append("$")
            self.pos += 1

    def _variable(self, word: _Word, name: str) -> None:
        if name in ("PWD",):
            word.text.append("\0PWD\0")
        elif name in self.env and self.env[name]:
            word.text.append(self.env[name])
        else:
            word.unknown = True

    def _backtick(self, word: _Word) -> None:
        text = self.text
        end = self.pos + 1
        while end < len(text) and text[end] != "`":
            end += 2 if text[end] == "\\" else 1
        self._child(text[self.pos + 1 : end]).run()
        word.unknown = True
        self.pos = end + 1

    def _skip_heredocs(self) -> None:
        """The bodies of here-documents opened on the line just ended are data, not commands."""
        text = self.text
        for delimiter, strip_tabs in self.heredocs:
            while self.pos < len(text):
                end = text.find("\n", self.pos)
                end = len(text) if end < 0 else end
                line = text[self.pos : end]
                self.pos = end + 1
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
        self.heredocs = []


# ## What each command changes ###################################################################


def _analyse(words, redirects, cwd, home, root, found, depth):
    """Add this simple command's targets to ``found``; return the working directory after it."""

    def path_of(word):
        if word.unknown:
            return None
        text = word.value()
        if "\0PWD\0" in text:
            if cwd is None:
                return None
            text = text.replace("\0PWD\0", cwd)
        if not text:
            return None
        if not text.startswith("/"):
            if cwd is None:
                return None
            text = os.path.join(cwd, text)
        return os.path.normpath(text)

    def add(word, kind, removes=False):
        path = path_of(word)
        if path is None:
            return
        if word.glob:
            for match in _glob(path):
                found.append(Target(match, kind, removes))
        else:
            found.append(Target(path, kind, removes))

    for op, word in redirects:
        if op in _REDIRECT_WRITE:
            text = word.value()
            if op == ">&" and (text.isdigit() or text == "-"):
                continue  # 2>&1: a descriptor, not a file
            add(word, "redirection")

    while words and words[0].value() in _RESERVED and not words[0].unknown:
        words = words[1:]
    while words and _assignment(words[0]):
        words = words[1:]
    words = _unwrap(words)
    if not words:
        return cwd
    name = os.path.basename(words[0].value())
    args = words[1:]
    texts = [w.value() for w in args]

    if name in ("cd", "pushd"):
        rest = [w for w in args if not w.value().startswith("-") or w.value() == "-"]
        if not rest:
            return home or cwd
        if rest[0].value() == "-":
            return None
        return path_of(rest[0])
    if name in _SHELLS and "-c" in texts and depth < _MAX_DEPTH:
        i = texts.index("-c")
        if i + 1 < len(args) and not args[i + 1].unknown:
            found.extend(targets(args[i + 1].value(), cwd, home, root, depth + 1))
        return cwd
    if name == "cupcake" or (name in _LAUNCHERS or name.startswith("python")) and "cupcake" in texts:
        if "sync" in texts and any(t == "--uninstall" or t.startswith("--command") for t in texts):
            found.append(Target(" ".join(["cupcake"] + texts[texts.index("sync") :]), "uninstall"))
        return cwd

    operands = _operands(args)
    if name in ("rm", "rmdir", "unlink", "shred", "chmod", "chown", "chgrp", "chattr"):
        for word in operands:
            add(word, name, removes=True)
    elif name == "mv":
        sources, dest, into = _destination(args, operands)
        for word in sources:
            add(word, name, removes=True)
        _add_destination(dest, into, sources, name, add, path_of, found)
    elif name in ("cp", "install", "rsync"):
        sources, dest, into = _destination(args, operands)
        _add_destination(dest, into, sources, "cp onto" if name == "cp" else name, add, path_of, found)
    elif name == "ln":
        for word in operands:
            add(word, "ln")
    elif name in ("tee", "truncate", "touch"):
        for word in operands:
            add(word, name)
    elif name in ("sed", "gsed", "perl", "ruby") and any(_in_place(t, name) for t in texts):
        for word in _edited_files(args):
            add(word, f"{name} -i")
    elif name == "dd":
        for word in args:
            if word.value().startswith("of="):
                shifted = _Word()
                shifted.text, shifted.glob, shifted.unknown = [word.value()[3:]], word.glob, word.unknown
                add(shifted, "dd")
    elif name == "git" and operands:
        sub = operands[0].value()
        if sub in ("rm", "mv"):
            for word in operands[1:]:
                add(word, f"git {sub}", removes=True)
        elif sub in ("checkout", "restore"):
            for word in operands[1:]:
                add(word, f"git {sub}")
    return cwd


def _assignment(word) -> bool:
    text = word.value()
    name, eq, _ = text.partition("=")
    return (
        bool(eq) and bool(name) and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name)
    )


def _unwrap(words):
    """Drop ``sudo -u x``, ``env A=b``, ``nohup``, ``timeout 5`` and the like before the real command."""
    for _ in range(8):
        if not words:
            return words
        name = os.path.basename(words[0].value())
        if name not in _WRAPPERS:
            return words
        takes = _WRAPPER_ARGS.get(name, set())
        i = 1
        while i < len(words):
            text = words[i].value()
            if text == "--":
                i += 1
                break
            if text.startswith("-"):
                i += 2 if text in takes else 1
            elif name == "env" and _assignment(words[i]):
                i += 1
            elif name == "timeout":
                i += 1  # the duration
                break
            else:
                break
        words = words[i:]
    return words


def _operands(args):
    """The arguments that are not options (everything after ``--`` is an operand)."""
    out, options = [], True
    for word in args:
        text = word.value()
        if options and text == "--":
            options = False
        elif options and text.startswith("-") and text != "-" and not word.unknown:
            continue
        else:
            out.append(word)
    return out


def _destination(args, operands):
    """(sources, destination word, whether the destination is a directory to copy into)."""
    texts = [w.value() for w in args]
    for i, text in enumerate(texts):
        if text in ("-t", "--target-directory") and i + 1 < len(args):
            dest = args[i + 1]
            return [w for w in operands if w is not dest], dest, True
        if text.startswith("--target-directory="):
            dest = _Word()
            dest.text = [text.split("=", 1)[1]]
            return operands, dest, True
    if len(operands) < 2:
        return operands, None, False
    return operands[:-1], operands[-1], None


def _add_destination(dest, into, sources, kind, add, path_of, found) -> None:
    if dest is None:
        return
    path = path_of(dest)
    if path is None:
        return
    if into is None:
        into = len(sources) > 1 or dest.value().endswith("/") or os.path.isdir(path)
    if not into:
        add(dest, kind)
        return
    for source in sources:
        name = os.path.basename(source.value().rstrip("/"))
        if name and not source.unknown:
            found.append(Target(os.path.normpath(os.path.join(path, name)), kind))
    add(dest, kind)  # a file already where the directory was meant to be is replaced too


_SCRIPT_OPTIONS = {"-e", "-E", "-f", "--expression", "--file"}  # the script is this option's value


def _edited_files(args):
    """The files ``sed -i``/``perl -i`` rewrite: the operands, less the script when it is one."""
    files, script_given, i = [], False, 0
    while i < len(args):
        text = args[i].value()
        if text in _SCRIPT_OPTIONS:
            script_given, i = True, i + 2
            continue
        if text.startswith(("--expression=", "--file=")):
            script_given = True
        elif not text.startswith("-") or text == "-" or args[i].unknown:
            files.append(args[i])
        i += 1
    return files if script_given else files[1:]


def _in_place(text: str, name: str) -> bool:
    if text.startswith("--in-place"):
        return True
    return (
        text.startswith("-")
        and not text.startswith("--")
        and "i" in text[1:]
        and (name != "sed" or text[1:2] == "i" or text[1:].replace("i", "").isalpha())
    )


def _glob(pattern: str) -> list:
    """The existing paths an unquoted pattern names (the shell expands it before the command runs)."""
    from cupcake.policy.globmatch import has_magic, match_name

    parts = pattern.split("/")
    current = ["/"]
    for i, part in enumerate(parts[1:], 1):
        if not part:
            continue
        following = []
        for directory in current:
            if has_magic(part):
                try:
                    names = os.listdir(directory)
                except OSError:
                    continue
                following.extend(os.path.join(directory, n) for n in sorted(names) if match_name(part, n))
            else:
                candidate = os.path.join(directory, part)
                if i == len(parts) - 1 or os.path.isdir(candidate):
                    following.append(candidate)
        current = following[:1000]
    return current
