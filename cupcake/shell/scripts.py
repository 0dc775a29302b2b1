"""Scripts a command runs from a file: a shell script (``bash x.sh``, ``source x``) read now and
walked like the command itself, or as this same command wrote it; and the files other programs
read as commands (``sed -f``, ``awk -f``, ``curl -K``, ``ssh -F``, ``crontab FILE``). A script the
reader cannot read — a stream, a descriptor, ``/proc``, a file this command writes with content
it cannot see — is said, never guessed; a missing one makes bash fail, which changes nothing."""

from __future__ import annotations

from cupcake.shell import paths
from cupcake.shell.model import Opaque, normpath
from cupcake.shell.words import Word


def _path(cmd, word):
    if not word.exact:
        return None
    if word.value.startswith("/"):
        return normpath(word.value)
    return None if cmd.cwd is None else normpath(cmd.cwd.rstrip("/") + "/" + word.value)


def script_text(w, cmd, word):
    """The text of the shell script ``word`` names, or None (said as unknown when it matters)."""
    path = _path(cmd, word)
    if path is None:
        w.script.unknown(
            f"`{cmd.program}` runs a script Cupcake cannot find ({word.value})", "run a script named plainly", cmd
        )
        return None
    if paths.opaque(path) or path.startswith("/dev/"):
        w.script.unknown(
            f"`{cmd.program}` reads its script from {word.value}, a stream Cupcake does not read",
            "write the commands themselves",
            cmd,
        )
        return None
    if path in w.files:
        written = w.files[path]
        if written is None:
            w.script.unknown(
                f"this command runs {word.value}, a script it writes first, which Cupcake cannot read",
                "write the script and run it in separate calls",
                cmd,
            )
            return None
        return written[0]
    if any(x.could_be(path) for x in w.script.writes):
        w.script.unknown(
            f"this command runs {word.value}, a script it may write first",
            "write the script and run it in separate calls",
            cmd,
        )
        return None
    data = paths.readable(path)
    if data == paths.MISSING:
        return None  # no such script: bash fails, nothing runs
    if data == paths.TOO_LONG:
        w.script.unknown(f"{word.value} is too long for Cupcake to read", "run a shorter script", cmd)
        return None
    if data == paths.UNREADABLE:
        w.script.unknown(
            f"`{cmd.program}` runs {word.value}, which Cupcake cannot read as a file",
            "run a script file named plainly",
            cmd,
        )
        return None
    return data.decode("utf-8", "replace")


def other_script(w, cmd, effect, st, via) -> None:
    """A file a program reads as commands of its own language. One read from a stream, a
    descriptor or /proc is the program's standard input (or unknown); one not written out, or one
    this command writes first, cannot be read."""
    language = effect.language or ""
    word = effect.word
    path = _path(cmd, word)
    if path is None:
        w.script.unknown(
            f"`{cmd.program}` runs code from {word.value}, which is not written out",
            "give it a file named plainly",
            cmd,
        )
        return
    if paths.opaque(path) or path.startswith("/dev/"):
        if path in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"):
            w.parts.stdin_code(w, cmd, effect, st, via)
            return
        w.script.unknown(
            f"`{cmd.program}` runs code from {word.value}, a stream Cupcake does not read", "give it a file", cmd
        )
        return
    if path in w.files or any(x.could_be(path) for x in w.script.writes):
        written = w.files.get(path)
        if written is None:
            w.script.unknown(
                f"this command runs {word.value}, which it writes first",
                "write the file and run it in separate calls",
                cmd,
            )
            return
        cmd.opaque = cmd.opaque + (Opaque("inline code", language or "code", written[0], True),)
        return
    handler = _LANGUAGES.get(language)
    if handler is None:  # a program's script (python x.py): not read here; the OS layer's part
        cmd.opaque = cmd.opaque + (Opaque("script file", language or "code", effect.word.value, effect.word.known),)
        return
    handler(w, cmd, effect, st, via)


def _text_of(w, cmd, word):
    path = _path(cmd, word)
    if path is None or paths.opaque(path) or path.startswith("/dev/") or path in w.files:
        return None
    if any(x.could_be(path) for x in w.script.writes):
        return None
    data = paths.readable(path, 64 * 1024)
    if not isinstance(data, bytes):
        return None
    return data.decode("utf-8", "replace")


def _as_code(w, cmd, effect, st, via) -> None:
    """sed -f, awk -f: the file's text is the program's code (read like inline code)."""
    text = _text_of(w, cmd, effect.word)
    if text is None and _path(cmd, effect.word) is not None and not _missing(cmd, effect.word):
        cmd.opaque = cmd.opaque + (Opaque("inline code", effect.language, None, False),)
        return
    if text is not None:
        cmd.opaque = cmd.opaque + (Opaque("inline code", effect.language, text, True),)
        if effect.language == "sed":
            _sed(w, cmd, text, st, via)


def _missing(cmd, word) -> bool:
    path = _path(cmd, word)
    return path is not None and paths.readable(path, 0) == paths.MISSING


def _sed(w, cmd, text: str, st, via) -> None:
    from cupcake.programs import sedscript
    from cupcake.programs.reading import Effect

    writes, reads, runs = sedscript.scan(text)
    for target in writes:
        w.parts.effect(w, cmd, Effect("writes", Word(target), "sed w"), st, via)
    for command in runs:
        if command is None:
            w.script.unknown("a sed script's `e` runs a command built from the text", "leave `e` out", cmd)
        else:
            w.parts.effect(w, cmd, Effect("runs", Word(command), "sed e"), st, via)


def _curl_config(w, cmd, effect, st, via) -> None:
    """``curl -K FILE``: each line is an option (``output = "x"``, ``-o x``): read as arguments."""
    text = _text_of(w, cmd, effect.word)
    if text is None:
        if not _missing(cmd, effect.word):
            w.script.unknown(
                f"`curl -K {effect.word.value}` takes options from a file Cupcake cannot read",
                "give curl its options directly",
                cmd,
            )
        return
    words = [Word("curl")]
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _sep, value = line.replace("=", " ", 1).replace(":", " ", 1).partition(" ")
        key = key.strip()
        words.append(Word(key if key.startswith("-") else "--" + key))
        value = value.strip().strip('"')
        if value:
            words.append(Word(value))
    from cupcake import programs

    reading = programs.read(words)
    if reading is not None:
        w.parts.effects(w, cmd, reading, st, via, wrapper=True)


def _ssh_config(w, cmd, effect, st, via) -> None:
    text = _text_of(w, cmd, effect.word)
    if text is None:
        if effect.word.value != "/dev/null" and not _missing(cmd, effect.word):
            w.script.unknown(
                f"`ssh -F {effect.word.value}` reads settings Cupcake cannot read", "give ssh its options directly", cmd
            )
        return
    for line in text.splitlines():
        key = line.strip().split(None, 1)[0].lower() if line.strip() else ""
        if key in ("proxycommand", "localcommand", "knownhostscommand", "include", "match"):
            w.script.unknown(
                f"{effect.word.value} has `{key}`, which runs commands or reads more settings",
                "give ssh its options directly",
                cmd,
            )
            return


def later(w, cmd, effect, st, via) -> None:
    w.script.unknown(
        f"`{effect.what}` installs commands that run later, outside any check", "run the commands themselves", cmd
    )


def _module(w, cmd, effect, st, via) -> None:
    w.script.unknown(f"`{effect.what} {effect.word.value}` loads code into the kernel", "leave it to a person", cmd)


def _sh_later(w, cmd, effect, st, via) -> None:
    w.parts.run_script(w, cmd, effect.word, st.copy(), via + (effect.what,), None)


_LANGUAGES = {
    "sed": _as_code,
    "awk": _as_code,
    "curl-config": _curl_config,
    "ssh-config": _ssh_config,
    "cron": later,
    "kernel-module": _module,
    "sh": _sh_later,
}
