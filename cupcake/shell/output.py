"""What a command prints, where the reader can tell: ``stdout(cmd)``, what a pipe or a redirection
carries (``echo``, ``printf``, ``cat <<EOF``). What a command substitution or ``xargs`` makes of a
command's output is ``printed``'s."""

from __future__ import annotations


def stdout(cmd):
    """What ``echo``/``printf``/``cat <<EOF`` print, as (text, known), else None."""
    if cmd is None or not cmd.words:
        return None
    program = cmd.program
    args = cmd.words[1:]
    if program == "echo":
        escapes = False
        while (
            args
            and args[0].known
            and args[0].value[:1] == "-"
            and set(args[0].value[1:]) <= set("neE")
            and len(args[0].value) > 1
        ):
            escapes = escapes or "e" in args[0].value
            args = args[1:]
        text = " ".join(w.value for w in args) + "\n"
        # `echo -e`, and echo in sh (dash) or zsh, turn backslash escapes into other characters
        plain = "\\" not in text or not (escapes or _escaping_echo(cmd))
        return text, all(w.known for w in args) and plain
    if program == "printf" and args and args[0].value != "-v":
        return _printf(args)
    if program == "cat" and len(cmd.words) == 1:
        for r in reversed(cmd.redirects):
            if r.feeds_stdin:
                return r.body, r.body_known
    return None


def _escaping_echo(cmd) -> bool:
    """Whether ``echo`` here turns backslash escapes into characters (not bash's own, by default)."""
    return any(v.split()[0] in ("sh", "dash", "zsh", "ash", "posh", "ksh", "mksh") for v in cmd.via if v)


def _printf(args):
    """printf's output: the format used again while arguments remain; ``%s`` and plain escapes are
    known, any other conversion or escape is not."""
    fmt = args[0].value
    rest = [w.value for w in args[1:]]
    out: list[str] = []
    known = all(w.known for w in args)
    for _ in range(64):
        used, known = _format_once(fmt, rest, out, known)
        if not rest or not used:
            break
    else:
        known = False
    return "".join(out), known


def _format_once(fmt: str, rest: list, out: list, known: bool):
    i, used = 0, False
    while i < len(fmt):
        ch = fmt[i]
        if ch == "%" and i + 1 < len(fmt):
            if fmt[i + 1] == "s":
                out.append(rest.pop(0) if rest else "")
                used = True
            elif fmt[i + 1] == "%":
                out.append("%")
            else:
                known = False
                if rest:
                    rest.pop(0)
                    used = True
            i += 2
        elif ch == "\\" and i + 1 < len(fmt):
            plain = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}.get(fmt[i + 1])
            if plain is None:
                known = False  # \x72, \162, \u…: another character than the one written
            out.append(plain or fmt[i + 1])
            i += 2
        else:
            out.append(ch)
            i += 1
    return used, known
