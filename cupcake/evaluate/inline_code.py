"""What inline interpreter code (``python -c``, ``node -e``, ``perl -e``, ``ruby -e``, ``php -r``, or
code fed on standard input) would do, as far as the rule packs need it: the shell commands it hands
to a shell (``os.system("…")``, ``execSync("…")``, ``system("…")``, backticks), the deletions it
makes, said as the ``rm`` they stand for (``shutil.rmtree(p)`` is ``rm -rf p``), the path literals it
names, and what makes it unreadable (``hidden``): names looked up or code built at run time
(``getattr``, ``eval``, ``exec``, ``__import__`` of a computed name, decoding), which a reader cannot
follow. A rule never sees through those, so the packs refuse them (the self-protection rule).

Plain string scanning (no ``re``, no parser): it errs towards "hidden"."""

from __future__ import annotations

MAX_CODE = 64 * 1024

# language -> calls whose first (string) argument is a shell command line.
SHELL_CALLS = {
    "python": ("os.system(", "os.popen(", "subprocess.run(", "subprocess.call(", "subprocess.check_call(")
    + ("subprocess.check_output(", "subprocess.Popen(", "subprocess.getoutput(", "subprocess.getstatusoutput(")
    + ("commands.getoutput(", "pty.spawn(", "os.execvp(", "os.execv(", "os.spawnlp("),
    "node": (
        "execSync(",
        "exec(",
        "spawnSync(",
        "spawn(",
        "execFileSync(",
        "execFile(",
        "$`",
        "Bun.spawn(",
        "Deno.Command(",
    ),
    "perl": ("system(", "system ", "exec(", "exec ", "qx(", "qx{", "qx/", "`", "open("),
    "ruby": ("system(", "system ", "exec(", "exec ", "%x(", "%x{", "`", "spawn(", "Open3."),
    "php": ("shell_exec(", "exec(", "system(", "passthru(", "popen(", "proc_open(", "`"),
}
# language -> calls that delete their path argument, and whether recursively.
DELETE_CALLS = {
    "python": (("shutil.rmtree(", True), ("rmtree(", True), ("os.remove(", False), ("os.unlink(", False))
    + ((".unlink(", False), ("os.rmdir(", False), (".rmdir(", False), ("os.removedirs(", True)),
    "node": (("rmSync(", True), ("rmdirSync(", True), ("rimraf", True), ("unlinkSync(", False))
    + (("fs.rm(", True), ("fs.rmdir(", True), ("fs.unlink(", False), ("remove(", True), ("removeSync(", True)),
    "perl": (("remove_tree(", True), ("rmtree(", True), ("unlink(", False), ("unlink ", False), ("rmdir(", False)),
    "ruby": (("rm_rf(", True), ("rm_r(", True), ("remove_dir(", True), ("rm(", False), ("File.delete(", False))
    + (("FileUtils.rm_rf ", True), ("rm_rf ", True)),
    "php": (("unlink(", False), ("rmdir(", False)),
}
# language -> what builds names or code at run time.
HIDDEN = {
    "python": (("getattr(", "looks a name up with getattr"), ("eval(", "runs eval"), ("exec(", "runs exec"))
    + (("compile(", "compiles code at run time"), ("importlib", "imports a module by a computed name"))
    + (("b64decode", "decodes data"), ("codecs.decode", "decodes data"), ("fromhex", "decodes data"))
    + (("__builtins__", "reaches the builtins"), ("globals()[", "looks a name up in globals()"))
    + (("vars(", "looks a name up with vars"), ("marshal.loads", "loads code"), ("pickle.loads", "loads code")),
    "node": (("eval(", "runs eval"), ("Function(", "builds a function from text"), ("atob(", "decodes data"))
    + (("'base64'", "decodes data"), ('"base64"', "decodes data"), ("fromCharCode", "builds text from codes"))
    + (("vm.run", "runs code from text"), ("require(process", "requires a computed module"), ("[`", "builds a name")),
    "perl": (
        ("eval", "runs eval"),
        ("pack(", "packs bytes"),
        ("decode_base64", "decodes data"),
        ("chr(", "builds text"),
    )
    + (("->can(", "looks a name up"), ("&{", "calls a computed name"), ("&$", "calls a computed name")),
    "ruby": (("eval", "runs eval"), ("send(", "calls a computed name"), (".send ", "calls a computed name"))
    + (("Base64", "decodes data"), (".pack(", "packs bytes"), ("const_get", "looks a name up"))
    + (("public_send", "calls a computed name"), ("method(", "looks a method up")),
    "php": (("eval(", "runs eval"), ("base64_decode", "decodes data"), ("assert(", "runs assert"))
    + (("create_function", "builds a function from text"), ("call_user_func", "calls a computed name")),
}
# Python reaches its builtins through a computed name this way too.
_PY_IMPORT = "__import__("
_WRITE_HINTS = ("'w'", '"w"', "'a'", '"a"', "'wb'", '"wb"', "write", "appendFile", "writeFile", "'>", '">', "copy")
LANGUAGES = {"python": "python", "node": "node", "perl": "perl", "ruby": "ruby", "php": "php", "bun": "node"}
LANGUAGES.update({"deno": "node", "nodejs": "node", "js": "node", "javascript": "node", "python3": "python"})
LANGUAGES.update({"typescript": "node"})


class Found:
    __slots__ = ("shell", "hidden", "paths", "writes")

    def __init__(self):
        self.shell: list[str] = []  # shell command lines the code would run
        self.hidden: list[str] = []  # why the code cannot be read
        self.paths: list[str] = []  # path literals it names
        self.writes = False  # it writes files (its path literals may be written)


def read(language: str, code: str):
    """The ``Found`` of ``code`` in ``language`` (None for a language not read here)."""
    lang = LANGUAGES.get(language)
    if lang is None:
        return None
    found = Found()
    if len(code) > MAX_CODE:
        found.hidden.append("is too long to read")
        return found
    for needle, why in HIDDEN[lang]:
        if needle in code:
            found.hidden.append(why)
            break
    if lang == "python" and _PY_IMPORT in code and not _literal_call(code, _PY_IMPORT):
        found.hidden.append("imports a module by a computed name")
    for call in SHELL_CALLS[lang]:
        for args in _calls(code, call):
            line = _command_line(args, call)
            if line is None:
                found.hidden.append(f"runs a command built at run time (`{call.strip('(')}`)")
            elif line:
                found.shell.append(line)
    for call, recursive in DELETE_CALLS[lang]:
        for args in _calls(code, call):
            strings = _strings(args)
            target = _quote(strings[0]) if strings and _first_is_string(args) else '"$UNKNOWN_PATH"'
            found.shell.append(("rm -rf -- " if recursive else "rm -f -- ") + target)
    found.paths = [s for s in _strings(code) if _looks_like_path(s)]
    found.writes = any(h in code for h in _WRITE_HINTS)
    return found


def _literal_call(code: str, call: str) -> bool:
    """``__import__('os')``: every such call takes a string literal."""
    at = code.find(call)
    while at >= 0:
        rest = code[at + len(call) :].lstrip()
        if not rest or rest[0] not in "'\"":
            return False
        end = rest.find(rest[0], 1)
        if end < 0 or not rest[end + 1 :].lstrip().startswith(")"):
            return False
        at = code.find(call, at + 1)
    return True


def _calls(code: str, call: str):
    """The argument text of each call of ``call`` (up to the closing bracket, or the line's end)."""
    at = code.find(call)
    while at >= 0:
        start = at + len(call)
        if call == "`" or call == "$`":
            end = code.find("`", start)
            if end < 0:
                return
            yield "`" + code[start:end] + "`"
            at = code.find(call, end + 1)
            continue
        level = 1
        k = start
        quote = ""
        while k < len(code) and level:
            ch = code[k]
            if quote:
                if ch == "\\":
                    k += 1
                elif ch == quote:
                    quote = ""
            elif ch in "'\"`":
                quote = ch
            elif ch in "([{":
                level += 1
            elif ch in ")]}":
                level -= 1
            elif ch in ";\n" and not call.endswith("("):
                break
            k += 1
        yield code[start:k]
        at = code.find(call, k)


def _strings(text: str) -> list:
    """The contents of the string literals in ``text`` (quotes '' "" ``, backslash escapes kept simple)."""
    out = []
    k = 0
    while k < len(text):
        ch = text[k]
        if ch in "'\"`":
            end = k + 1
            buf = []
            while end < len(text) and text[end] != ch:
                if text[end] == "\\" and end + 1 < len(text):
                    end += 1
                buf.append(text[end])
                end += 1
            out.append("".join(buf))
            k = end + 1
        else:
            k += 1
    return out


def _first_is_string(args: str) -> bool:
    text = args.lstrip().lstrip("([").lstrip()
    if text.startswith(("r'", 'r"', "f'", 'f"', "b'", 'b"')):
        return text[0] != "f"
    return text[:1] in ("'", '"', "`") and "+" not in args.split(",")[0] and "${" not in args.split(",")[0]


def _command_line(args: str, call: str):
    """The shell line a call runs: a string literal, or a list of literals joined; None when built at
    run time; "" when the call is not one that runs a command after all."""
    text = args.strip()
    if call in ("`", "$`"):
        inner = text[1:-1]
        return None if "${" in inner or "#{" in inner else inner
    if call in ("open(",):  # perl open with a pipe: open(F, "cmd |")
        strings = _strings(text)
        piped = [s for s in strings if s.rstrip().endswith("|") or s.lstrip().startswith("|")]
        return piped[0].strip(" |") if piped else ""
    if text.startswith("["):  # a list of arguments: ['rm', '-rf', '/']
        inner = text[1 : text.find("]")] if "]" in text else text[1:]
        strings = _strings(inner)
        if not strings or any(_not_literal(part) for part in inner.split(",") if part.strip()):
            return None
        return " ".join(_quote(s) for s in strings)
    if not _first_is_string(text):
        return None
    strings = _strings(text)
    if not strings:
        return None
    first = strings[0]
    if "{" in first and text.lstrip().startswith(("f'", 'f"')):
        return None
    if call in ("spawnSync(", "spawn(", "execFileSync(", "execFile(") and len(strings) > 1:
        return " ".join(_quote(s) for s in strings)
    return first


def _not_literal(part: str) -> bool:
    part = part.strip()
    return not (part[:1] in ("'", '"') and part[-1:] == part[:1])


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _looks_like_path(text: str) -> bool:
    if not text or len(text) > 4096 or "\n" in text:
        return False
    return text.startswith(("/", "~/", "./", "../")) or "/." in text or text.startswith(".")
