"""The command that really runs: wrappers peeled off, and where nested code hides.

``peel(words)`` removes wrappers (``sudo``, ``doas``, ``env``, ``command``, ``builtin``, ``exec``,
``nohup``, ``nice``, ``ionice``, ``timeout``, ``time``, ``stdbuf``, ``setsid``, ``xargs``, ``chroot``,
``flock``, ``taskset``, ``busybox``, launchers such as ``uv run``…) with their options, and reports
what they change: a working directory (``env -C``), variables (``env X=1``), an unknown extra
argument (``xargs``), a text to read as a script (``watch 'cmd'``, ``flock f -c 'cmd'``, ``env -S``).
``shell_script`` finds the script of ``sh|bash|… -c`` (any option clustering), ``inline_code`` the
code of ``python -c``/``perl -e``/…, and ``find_parts`` the ``-exec``/``-delete`` of ``find``.
"""

from __future__ import annotations

from cupcake.shell.words import ANY, Word, unknown_word

TYPE_CHECKING = False  # not typing's: the Bash reader is on the hot path
if TYPE_CHECKING:  # annotations only
    from cupcake.shell.words import Token

SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "posh", "rbash"))
# program -> (option letters taking a value, option words taking a value)
_WRAPPERS = {
    "sudo": (
        "ugCDhpRrtTU",
        {
            "--user",
            "--group",
            "--close-from",
            "--chdir",
            "--host",
            "--prompt",
            "--chroot",
            "--role",
            "--type",
            "--command-timeout",
            "--other-user",
        },
    ),
    "doas": ("uC", set()),
    "run0": ("uDg", {"--user", "--group", "--chdir", "--setenv", "--unit", "--property", "--description"}),
    "env": ("uCS", {"--unset", "--chdir", "--split-string"}),
    "command": ("", set()),
    "builtin": ("", set()),
    "exec": ("a", set()),
    "nohup": ("", set()),
    "nice": ("n", {"--adjustment"}),
    "ionice": ("cnpPu", {"--class", "--classdata", "--pid", "--pgid", "--uid"}),
    "timeout": ("ks", {"--kill-after", "--signal"}),
    "gtimeout": ("ks", {"--kill-after", "--signal"}),
    "time": ("fo", {"--format", "--output"}),
    "stdbuf": ("ioe", {"--input", "--output", "--error"}),
    "setsid": ("", set()),
    "xargs": (
        "IiLlnPsdEaeS",
        {
            "--arg-file",
            "--delimiter",
            "--eof",
            "--replace",
            "--max-lines",
            "--max-args",
            "--max-procs",
            "--max-chars",
            "--process-slot-var",
        },
    ),
    "parallel": ("jSI", {"--jobs", "-j", "--sshlogin", "--arg-file", "-a"}),
    "chroot": ("", {"--userspec", "--groups"}),
    "flock": ("wEc", {"--timeout", "--conflict-exit-code", "--command"}),
    "taskset": ("", set()),
    "numactl": ("CmNp", set()),
    "chrt": ("", set()),
    "caffeinate": ("tw", set()),
    "unbuffer": ("", set()),
    "chronic": ("", set()),
    "busybox": ("", set()),
    "watch": ("ndgqx", {"--interval", "--differences", "--exec"}),
    "strace": ("oeEpPsSuU", {"--output", "--expr", "--signal"}),
    "ltrace": ("oeEpsSuU", set()),
    "script": ("cEIOqT", {"--command", "--log-io", "--log-in", "--log-out", "--timing"}),
    "su": ("cgGsw", {"--command", "--group", "--shell", "--whitelist-environment"}),
    "runuser": ("cgGsuw", {"--command", "--group", "--shell", "--user"}),
    "npx": ("p", {"--package", "-p"}),
    "bunx": ("", set()),
    "uvx": ("", {"--from", "--with", "--python"}),
    "dotenv": ("fe", set()),
}
_LAUNCHERS = {
    "uv": "run",
    "poetry": "run",
    "pipenv": "run",
    "pipx": "run",
    "bundle": "exec",
    "pnpm": "exec",
    "rye": "run",
    "pdm": "run",
    "hatch": "run",
    "conda": "run",
    "mamba": "run",
}
_SEPARATE_NUMBER = {"timeout", "gtimeout", "taskset", "chrt"}  # take one positional before the command
# interpreter -> (option words whose value is code, option letters whose value is code)
INTERPRETERS = {
    "python": ("-c",),
    "pypy": ("-c",),
    "perl": ("-e", "-E"),
    "node": ("-e", "--eval", "-p", "--print"),
    "nodejs": ("-e", "--eval", "-p", "--print"),
    "bun": ("-e", "--eval", "-p", "--print"),
    "deno": ("eval",),
    "ruby": ("-e",),
    "php": ("-r",),
    "lua": ("-e",),
    "Rscript": ("-e",),
    "osascript": ("-e",),
    "tclsh": (),
    "awk": (),
    "gawk": (),
    "mawk": (),
    "nawk": (),
    "jq": (),
    "sed": ("-e", "--expression"),
    "gsed": ("-e", "--expression"),
    "vim": ("-c",),
    "vi": ("-c",),
    "nvim": ("-c",),
    "ex": ("-c",),
}


def language(program: str):
    """The interpreter family of a program name (``python3.12`` -> ``python``), or None."""
    if program in INTERPRETERS:
        return program
    for prefix in ("python", "pypy", "perl", "ruby", "php", "node", "lua"):
        if program.startswith(prefix) and all(c.isdigit() or c == "." for c in program[len(prefix) :]):
            return prefix
    return None


def basename(word: Word) -> str:
    value = word.value
    return value.rstrip("/").rsplit("/", 1)[-1] if "/" in value else value


class Peeled:
    """What ``peel`` found: the inner ``words``, the wrappers' argv tuples, their names for ``via``,
    a directory (Word) from ``env -C``/``sudo -D``, variables from ``env``, whether extra unknown
    arguments follow (``xargs``), a replacement string (``xargs -I R``), a text to run as a script,
    and whether the command still runs in the current shell (only ``command``/``builtin``)."""

    __slots__ = ("words", "wrappers", "names", "chdir", "assigns", "extra", "replace", "script", "in_shell")

    def __init__(self, words):
        self.words = words
        self.wrappers = []
        self.names = []
        self.chdir = None
        self.assigns = []
        self.extra = False
        self.replace = None
        self.script = None
        self.in_shell = True


def peel(words) -> Peeled:
    out = Peeled(list(words))
    for _ in range(16):
        words = out.words
        if not words or not words[0].known:
            return out
        name = basename(words[0])
        if name in _LAUNCHERS and len(words) > 1 and words[1].value == _LAUNCHERS[name]:
            i = 2
            while i < len(words) and words[i].value.startswith("-"):
                i += 2 if words[i].value in ("--with", "--python", "--from", "-p", "-n", "--name", "--env-file") else 1
            _record(out, name + " " + _LAUNCHERS[name], words, i)
            continue
        if name not in _WRAPPERS:
            return out
        letters, longs = _WRAPPERS[name]
        if name == "command" and any(w.value in ("-v", "-V") for w in words[1:2]):
            return out  # `command -v x` looks x up, it does not run it
        if name == "exec" and len(words) == 1:
            return out
        i = 1
        values = {}
        while i < len(words):
            word = words[i]
            text = word.value
            if text == "--":
                i += 1
                break
            if name == "env" and text == "-":
                i += 1
                continue
            if text.startswith("--") and word.known:
                key, eq, val = text.partition("=")
                if key in longs and not eq:
                    values[key] = words[i + 1] if i + 1 < len(words) else None
                    i += 2
                else:
                    values[key] = Word(val) if eq else None
                    i += 1
                continue
            if text.startswith("-") and len(text) > 1 and word.known:
                if name == "nice" and text[1:].lstrip("-").isdigit():
                    i += 1
                    continue
                if text in longs:
                    values[text] = words[i + 1] if i + 1 < len(words) else None
                    i += 2
                    continue
                taken = False
                for k, ch in enumerate(text[1:], 1):
                    if ch in letters:
                        rest = text[k + 1 :]
                        if rest:
                            values["-" + ch] = Word(rest)
                            i += 1
                        else:
                            values["-" + ch] = words[i + 1] if i + 1 < len(words) else None
                            i += 2
                        taken = True
                        break
                    values["-" + ch] = None
                if not taken:
                    i += 1
                continue
            if name == "env" and _is_assignment(text):
                key, _, val = text.partition("=")
                out.assigns.append((key, Word(val, word.raw, word.known, word.glob, word.quoted)))
                i += 1
                continue
            break
        if name in _SEPARATE_NUMBER and i < len(words):
            i += 1  # the duration / CPU mask / priority
        if name == "flock" and i < len(words):
            i += 1  # the lock file (or descriptor)
            if i + 1 < len(words) and words[i].value in ("-c", "--command"):
                values["-c"] = words[i + 1]
                i += 2
        if name == "chroot" and i < len(words):
            i += 1  # the new root
        _record(out, name, words, i)
        if name == "sudo" and ("-e" in values or "--edit" in values):
            out.words = [Word("sudoedit")] + out.words  # sudo -e FILE edits FILE
        if name not in ("command", "builtin"):
            out.in_shell = False
        if name in ("env", "sudo", "run0"):
            chdir = values.get("-C") or values.get("--chdir") or values.get("-D")
            if chdir is not None:
                out.chdir = chdir
        if name == "env" and (values.get("-S") or values.get("--split-string")):
            split = values.get("-S") or values.get("--split-string")
            out.script = (split, out.words)
            out.words = []
            return out
        if name in ("flock", "su", "runuser", "script"):
            code = values.get("-c") or values.get("--command")
            if code is not None:
                out.script = (code, [])
                out.words = []
                return out
        if name == "watch" and "-x" not in values and "--exec" not in values and out.words:
            joined = " ".join(w.value for w in out.words)
            out.script = (Word(joined, joined, all(w.known for w in out.words)), [])
            out.words = []
            return out
        if name in ("xargs", "parallel"):
            replace = values.get("-I") or values.get("--replace") or values.get("-i")
            if "-i" in values and replace is None:
                replace = Word("{}")
            if name == "parallel" and replace is None:
                replace = Word("{}")
            out.replace = replace.value if replace is not None else None
            out.extra = out.replace is None
            if not out.words:
                out.words = [Word("echo")]
            if out.replace is not None:
                out.words = [_replace(w, out.replace) for w in out.words]
            if name == "parallel":
                cut = next((k for k, w in enumerate(out.words) if w.value in (":::", "::::", ":::+")), None)
                if cut is not None:
                    out.words = out.words[:cut]
                    out.extra = True
    return out


def _record(out: Peeled, name: str, words, i: int) -> None:
    out.wrappers.append(tuple(w.value for w in words[:i]))
    out.names.append(name)
    out.words = list(words[i:])


def _is_assignment(text: str) -> bool:
    name, eq, _ = text.partition("=")
    return bool(eq and name) and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name)


def _replace(word: Word, token: str) -> Word:
    """``{}`` (or the ``-I`` string) inside a word stands for an unknown input item."""
    if token not in word.value:
        return word
    tokens: list[Token] = []
    pieces = word.value.split(token)
    for k, piece in enumerate(pieces):
        if k:
            tokens.append(ANY)
        tokens.extend(piece)
    return Word(word.value, word.raw, False, word.glob, word.quoted, tokens)


def shell_script(words):
    """For ``sh``/``bash``/…: ("c", script Word, its $0…) / ("file", Word) / ("stdin",)."""
    i = 1
    command = False
    while i < len(words):
        text = words[i].value
        if text in ("--", "-"):
            i += 1
            break
        if text.startswith("--"):
            i += 2 if text in ("--rcfile", "--init-file", "--command") else 1
            if text == "--command":
                return ("c", words[i - 1], words[i:]) if i - 1 < len(words) else ("stdin",)
            continue
        if text[:1] in "-+" and len(text) > 1:
            extra = 0
            for ch in text[1:]:
                if ch == "c":
                    command = True
                elif ch in "oO":
                    extra += 1
            i += 1 + extra
            continue
        break
    if command:
        if i < len(words):
            return ("c", words[i], words[i + 1 :])
        return ("stdin",)
    if i < len(words):
        return ("file", words[i])
    return ("stdin",)


def inline_code(program: str, lang: str, words):
    """The code words given on the command line (``-c``, ``-e``, …), and whether stdin is code."""
    opts = INTERPRETERS.get(lang, ())
    found = []
    i = 1
    stdin = True
    first_operand = lang in ("awk", "gawk", "mawk", "nawk", "jq", "tclsh") or lang in ("sed", "gsed")
    while i < len(words):
        text = words[i].value
        if text == "--":
            i += 1
            break
        if lang == "deno" and text == "eval" and i + 1 < len(words):
            found.append(words[i + 1])
            return found, False
        if text in opts and i + 1 < len(words):
            found.append(words[i + 1])
            stdin = False
            i += 2
            continue
        if lang in ("sed", "gsed") and text.startswith("--expression="):
            found.append(Word(text.split("=", 1)[1]))
            stdin = False
            i += 1
            continue
        if text.startswith("-") and len(text) > 1 and not text.startswith("--"):
            # clusters: perl -pe CODE, -lne CODE, python -Sc CODE
            letters = text[1:]
            hit = next((o for o in opts if len(o) == 2 and o[1] in letters and letters.endswith(o[1])), None)
            if hit and lang not in ("sed", "gsed") and i + 1 < len(words):
                found.append(words[i + 1])
                stdin = False
                i += 2
                continue
            if lang in ("awk", "gawk", "mawk", "nawk") and text in ("-v", "-F", "-f", "-i", "-l"):
                if text == "-f":
                    first_operand = False
                i += 2
                continue
            if lang == "python" and text in ("-m", "-W", "-X"):
                if text == "-m":
                    return found, False
                i += 2
                continue
            if lang in ("sed", "gsed") and text in ("-f", "-l"):
                if text == "-f":
                    first_operand = False
                i += 2
                continue
            i += 1
            continue
        if text.startswith("+") and lang in ("vim", "vi", "nvim", "ex"):
            found.append(Word(text[1:]))
            i += 1
            continue
        break
    if first_operand and not found and i < len(words):
        found.append(words[i])
        stdin = False
    elif i < len(words) and lang not in ("sed", "gsed", "vim", "vi", "nvim", "ex"):
        if words[i].value != "-":
            stdin = False  # a script file
    if lang in ("sed", "gsed", "vim", "vi", "nvim", "ex", "awk", "gawk", "mawk", "nawk", "jq"):
        stdin = False
    return found, stdin


def find_parts(words):
    """``find`` roots and actions: (roots, [(action, inner words)], deleting, written files)."""
    i = 1
    roots = []
    while (
        i < len(words)
        and words[i].value in ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3")
        or (i < len(words) and words[i].value.startswith("-D") and i + 1 < len(words))
    ):
        i += 2 if words[i].value == "-D" else 1
    while i < len(words):
        text = words[i].value
        if words[i].known and (text.startswith("-") or text in ("(", "!", ")", ",")):
            break
        roots.append(words[i])
        i += 1
    if not roots:
        roots = [Word(".")]
    actions, deleting, files = [], False, []
    while i < len(words):
        text = words[i].value
        if text in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(words) and words[j].value not in (";", "+"):
                j += 1
            inner = words[i + 1 : j]
            root = roots[0] if len(roots) == 1 else None
            actions.append((text, [_found(w, root, text) for w in inner]))
            i = j + 1
            continue
        if text == "-delete":
            deleting = True
        elif text in ("-fprint", "-fprint0", "-fprintf", "-fls") and i + 1 < len(words):
            files.append(words[i + 1])
            i += 2 + (text == "-fprintf")
            continue
        i += 1
    return roots, actions, deleting, files


def _found(word: Word, root, action: str) -> Word:
    """``{}`` in an ``-exec`` command: a path found under the root (unknown which)."""
    if "{}" not in word.value:
        return word
    if root is not None and root.exact and action in ("-exec", "-ok"):
        prefix = list(root.value.rstrip("/") + "/")
    else:
        prefix = []
    tokens: list[Token] = []
    for k, piece in enumerate(word.value.split("{}")):
        if k:
            tokens.extend(prefix if k == 1 and not tokens else [])
            tokens.append(ANY)
        tokens.extend(piece)
    return Word(word.value, word.raw, False, False, word.quoted, tokens)


def unknown_arg() -> Word:
    return unknown_word("…")
