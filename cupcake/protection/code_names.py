"""Code the Bash reader does not follow (inline ``python -c`` text, an awk program, a heredoc fed to
an interpreter): whether it could name one of Cupcake's files. Imported only when a command runs
such code (``bash.Check.code``)."""

from __future__ import annotations

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
