"""Code the Bash reader does not follow (inline ``python -c`` text, an awk program, a heredoc fed to
an interpreter): whether it could name one of Cupcake's files, and self-protection's block when it
could (``code_block``). Imported only when a command runs such code (``bash.Check.code``)."""

from __future__ import annotations

from cupcake.protection.install import running
from cupcake.protection.protected_set import _piece, _text

# General-purpose languages: a name in their arguments or in what is piped in can become a path too.
GENERAL = frozenset(("python", "perl", "javascript", "ruby", "php", "lua", "r", "julia", "powershell", "other", "tcl"))
# What lets code build a name the text does not show: escapes, character codes, decoding,
# reversing, replacing, joining, formatting, or walking directories to reach every file.
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
    "replace",
    "translate",
    "join(",
    "format(",
    "walk",
    "glob",
    "iterdir",
    "listdir",
    "scandir",
    "readdir",
    "opendir",
    "rglob",
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
    "get-childitem",
    "gci ",
    "dir ",
    "ls ",
    "[char]",
    "-join",
    "-replace",
    "frombase64",
    "expandenvironment",
)
# Languages whose own commands can write files or run programs, and the words that do it: a
# script that uses none of them (and names nothing protected) changes no file.
_LANGUAGE_MARKERS = {
    "sed": ("w ", "w\t", "e ", "/e", "/w", "r ", "R ", "W "),
    "awk": ("system", "|", ">", "getline"),
    "psql": (
        "\\!",
        "\\o",
        "\\w",
        "\\g",
        "\\copy",
        "\\i",
        "\\ir",
        "\\setenv",
        "\\cd",
        "\\s ",
        "\\lo_",
        "program",
        "copy",
    ),
    "mysql": ("system", "\\!", "tee", "\\t", "source", "\\.", "outfile", "dumpfile", "load_file", "load data"),
    "sqlite": (
        ".shell",
        ".system",
        ".output",
        ".once",
        ".save",
        ".backup",
        ".clone",
        ".import",
        ".read",
        ".load",
        ".excel",
        ".archive",
        ".open",
        ".cd",
        ".log",
        ".trace",
        "writefile",
        "edit(",
        "load_extension",
        "attach",
        "vacuum",
    ),
    "sql": ("copy", "export", "attach", "install", "load", ".shell", ".output", ".once", "outfile", "program"),
    "gdb": (
        "shell",
        "!",
        "pipe",
        "|",
        "python",
        "py",
        "pi",
        "guile",
        "source",
        "dump",
        "append",
        "restore",
        "set logging",
        "save",
        "generate-core-file",
        "gcore",
        "compile",
        "call",
        "run",
        "start",
        "define",
        "eval",
        "alias",
        "exec",
    ),
    "lldb": (
        "platform shell",
        "shell",
        "script",
        "command source",
        "settings",
        "process launch",
        "run",
        "memory write",
    ),
    "vim": (
        "!",
        "w",
        "sav",
        "x",
        "up",
        "call",
        "system",
        "py",
        "lua",
        "perl",
        "ruby",
        "terminal",
        "so",
        "exe",
        "norm",
        "r ",
    ),
    "less": ("!", "|", "s", "o", "v", "e"),
    "dc": ("!",),
    "make": ("shell", "$(", "`", ";", "&&", "|"),
    "redis": (
        "config",
        "save",
        "bgsave",
        "module",
        "debug",
        "eval",
        "script",
        "slaveof",
        "replicaof",
        "migrate",
        "restore",
    ),
    "mongo": ("run", "load", "cat(", "writefile", "removefile", "copydbpath", "fs.", "mkdir"),
    "ed": ("!", "w", "r ", "e "),
    "jq": ("input_filename", "$__loc__", "@sh", "env", "$env"),
}


def names_in_code(text: str, names, language: str = "") -> str | None:
    """Why ``text`` could name a protected path: a protected name (quotes, concatenation and
    separators ignored: ``'cup' + 'cake.toml'`` names it) or a way to build one; None if neither."""
    squashed = squash(text)
    for name in names:
        if name in squashed:
            return f"it mentions {name!r}"
    lowered = text.lower()
    markers = _LANGUAGE_MARKERS.get(language)
    if markers is not None:
        for marker in markers:
            if marker in lowered:
                return f"it uses {marker.strip()!r}, a {language} command that can write files or run programs"
        return None
    for marker in _MARKERS:
        if marker in lowered:
            return f"it uses {marker.strip()!r}, which can build a file name Cupcake cannot see"
    if language in GENERAL:
        return _built_at_run_time(lowered, _BUILDING + _JOINING.get(language, ()))
    return None


# What in a general-purpose language can change a file or run a program (then every name it uses
# must be one the text shows), and what makes a name at run time out of pieces, data or input.
_CAPABILITIES = (
    "remove",
    "unlink",
    "rename",
    "rmdir",
    "rmtree",
    "truncate",
    "chmod",
    "chown",
    "link(",
    "symlink",
    "write",
    "copy",
    "move",
    "mkdir",
    "makedirs",
    "delete",
    "del ",
    "system",
    "popen",
    "subprocess",
    "spawn",
    "exec",
    "eval",
    "__import__",
    "importlib",
    "compile(",
    "fs.",
    "file_put_contents",
    "fopen",
    "fwrite",
    "fputs",
    "passthru",
    "proc_open",
    "qx",
    "`",
    "remove-item",
    "new-item",
    "move-item",
    "copy-item",
    "rename-item",
    "set-item",
    "set-content",
    "add-content",
    "clear-content",
    "out-file",
    "invoke-expression",
    "iex",
    "start-process",
    "utime",
    "touch",
)
_BUILDING = (
    "+",
    "%",
    "*",
    "$",
    "#{",
    "join",
    "format",
    "concat",
    "__",
    "decode",
    "chr",
    "read(",
    ".read",
    "readline",
    "readfile",
    "read-host",
    "get-content",
    "stdin",
    "input(",
    "argv",
    "env",
    "getattr",
    "f'",
    'f"',
    "<<",
    ".=",
    "sprintf",
    "-f ",
    "[",
)
# Languages whose concatenation is a dot, and Perl's quote-like operators.
_JOINING = {"perl": (" . ", ").", ".q", "q(", "qq", "q{", "q[", " x "), "php": (" . ", ")."), "other": (" . ",)}


def _built_at_run_time(lowered: str, building: tuple) -> str | None:
    """Code that can change a file or run a program, and makes a name at run time: the name it
    changes could be any (``a = 'cu'; os.remove(a + 'pcake.toml')``)."""
    can = next((c for c in _CAPABILITIES if c in lowered), None)
    if can is None and not _opens_for_writing(lowered):
        return None
    built = next((b for b in building if b in lowered), None)
    if built is None:
        return None
    what = can.strip() if can else "open(…, 'w')"
    return f"it can change files ({what!r}) and builds a value at run time ({built.strip()!r})"


def _opens_for_writing(lowered: str) -> bool:
    at = lowered.find("open(")
    while at >= 0:
        end = lowered.find(")", at)
        call = lowered[at : end if end > 0 else len(lowered)]
        if any(f"{q}{m}" in call for q in "'\"" for m in ("w", "a", "x", "r+")):
            return True
        at = lowered.find("open(", at + 5)
    return False


def squash(text: str) -> str:
    """Letters and digits only, lower case: what survives any quoting and concatenation."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


# ## self-protection's judgement ##


def code_block(check, cmd, code):
    """Self-protection's block for code ``cmd`` runs that the Bash reader does not follow (inline code, a
    script it cannot see) when the code could change Cupcake's files (``check``: the ``bash.Check``), else None."""
    kind = code.kind
    if kind == "script file":
        return None  # a script the reader does not read: its arguments were checked (``handed``)
    if not code.known or code.text is None:
        if kind in ("shell script", "stdin script"):
            what = "a shell script whose text Cupcake cannot know"
        else:
            what = f"{code.language} code whose text Cupcake cannot know"
        return _text(f"`{_piece(cmd)}` runs {what}, so Cupcake cannot tell whether it changes its own files")
    hint = names_in_code(code.text, protected_names(check), code.language)
    if hint is None and code.language in GENERAL:
        for word in cmd.words[1:]:
            if word.value == code.text:
                continue
            if not word.known or any(n in squash(word.value) for n in protected_names(check)):
                hint = f"its argument {word.value!r}" if word.known else "an argument Cupcake cannot know"
                break
        if hint is None and cmd.stdin_from is not None:
            for word in cmd.stdin_from.words:
                if not word.known or any(n in squash(word.value) for n in protected_names(check)):
                    hint = "what is piped into it"
                    break
    if hint:
        return _text(
            f"`{_piece(cmd)}` runs {code.language} code that could change Cupcake's own files "
            f"({hint}); Cupcake does not run code to find out, so it is blocked"
        )
    return None


def protected_names(check) -> tuple:
    """Protected names as they could appear in code, squashed (``code_names.squash``)."""
    out = {"cupcake"}
    p = check.protected
    secrets = check.secrets()
    files = [s for s in secrets if not s.endswith("/")]
    for path in list(p["files"]) + list(p["dirs"]) + list(p["settings_dirs"]) + files:
        base = squash(path.rstrip("/").rsplit("/", 1)[-1])
        if len(base) >= 4 and base not in ("toml",):
            out.add(base)
    for folder in secrets:  # a folder of transcripts by its last two names ("claudeprojects"): its own
        if folder.endswith("/"):  # name alone ("projects", "sessions") is every project's word
            out.add(squash("".join(folder.rstrip("/").rsplit("/", 2)[-2:])))
    for prefix, _parts, _entry in p["globs"]:
        base = squash(prefix.rstrip("/").rsplit("/", 1)[-1])
        if len(base) >= 4:
            out.add(base)
    package, _launcher = running()
    out.add(squash(package.rsplit("/", 1)[-1]))
    return tuple(sorted(out))
