"""What an extraction, a copy of a directory's contents or a patch would write, listed before it
runs: the members of a tar, zip or ar archive, the files under a directory ``cp -r src/. dest``
pours in, the files a patch (unified, git, or Codex's ``*** Update File:``) names. ``members(write,
script)`` gives the absolute paths written, or None when they cannot be listed — from standard input,
a file this same command writes, an archive holding links (a later member could go through one), a
transformed name, past the bounds — and the caller then treats the write as reaching anything under
its destination. Archives and directories are read as they are when the hook runs."""

from __future__ import annotations

from cupcake import lean_os as os
from cupcake.protection.protected_set import _describe, _display, _text, classify
from cupcake.shell import paths
from cupcake.shell.model import normpath

MAX_MEMBERS = 20_000
MAX_ARCHIVE = 32 * 1024 * 1024
MAX_PATCH = 4 * 1024 * 1024


def members(write, script):
    """The paths ``write`` (an ``into`` Write with a ``source``) would create or replace, or None."""
    effect = write.effect
    if effect is None or write.path is None:
        return None
    lister = _LISTERS.get(effect.language)
    if lister is None:
        return None
    if effect.language in ("patch", "mbox", "codex-patch"):
        names = _patch_names(write, script)
    else:
        source = _one_source(write, script)
        if source is None:
            return None
        names = lister(source, write)
    if names is None:
        return None
    base = write.path.rstrip("/") or "/"
    out = []
    for name in names:
        if name.startswith("/") or ".." in name.split("/"):
            return None  # an absolute or climbing member: where it lands is not the destination
        out.append(normpath(base + "/" + name))
    return out


def _one_source(write, script):
    sources = write.effect.source
    if len(sources) != 1 or not sources[0].exact:
        return None
    value = sources[0].value
    cwd = write.command.cwd if write.command is not None else None
    path = normpath(value) if value.startswith("/") else (None if cwd is None else normpath(cwd + "/" + value))
    if path is None or paths.opaque(path) or path.startswith("/dev/"):
        return None
    command = write.command
    if any(other.command is not command and other.could_be(path) for other in _before(script, command)):
        return None  # an earlier command writes it first
    return path


def _before(script, command) -> list:
    """The writes of the commands that run before ``command``."""
    out = []
    for cmd in script.redirect_only + script.commands:
        if cmd is command:
            break
        out.extend(cmd.writes)
    return out


def _tar(path: str, write):
    reading = write.command.reading if write.command is not None else None
    if reading is not None and (reading.has("--transform", "--xform", "-s") or reading.has("-P", "--absolute-names")):
        return None
    strip = 0
    if reading is not None and reading.get("--strip-components") is not None:
        value = reading.get("--strip-components")
        if not (value.known and value.value.isdigit()):
            return None
        strip = int(value.value)
    try:
        if os.path.getsize(path) > MAX_ARCHIVE:
            return None
        import tarfile

        names = []
        with tarfile.open(path) as archive:
            for k, info in enumerate(archive):
                if k > MAX_MEMBERS or info.issym() or info.islnk() or not (info.isfile() or info.isdir()):
                    return None
                name = info.name.lstrip("/")
                parts = [p for p in name.split("/") if p not in ("", ".")]
                if len(parts) <= strip:
                    continue
                names.append("/".join(parts[strip:]))
    except (OSError, EOFError, ValueError, Exception):
        return None
    wanted = [
        w.value
        for w in (reading.operands if reading is not None and reading.path[0] in ("tar", "gtar", "bsdtar") else ())
        if w.known
    ]
    if wanted:
        names = [n for n in names if any(n == x.strip("/") or n.startswith(x.strip("/") + "/") for x in wanted)]
    return names


def _zip(path: str, write):
    reading = write.command.reading if write.command is not None else None
    try:
        if os.path.getsize(path) > MAX_ARCHIVE:
            return None
        import zipfile

        names = []
        with zipfile.ZipFile(path) as archive:
            for k, info in enumerate(archive.infolist()):
                mode = info.external_attr >> 16
                if k > MAX_MEMBERS or (mode & 0o170000) == 0o120000:
                    return None
                names.append(info.filename)
    except (OSError, ValueError, Exception):
        return None
    if reading is not None and reading.has("-j"):
        names = [n.rstrip("/").rsplit("/", 1)[-1] for n in names if not n.endswith("/")]
    wanted = [w.value for w in (reading.operands[1:] if reading is not None else ()) if w.known]
    if wanted and reading is not None and not reading.has("-x"):
        from cupcake.shell import could_match

        names = [n for n in names if any(could_match(x, n) for x in wanted)]
    return names


def _ar(path: str, write):
    data = paths.readable(path, MAX_ARCHIVE)
    if not isinstance(data, bytes) or not data.startswith(b"!<arch>\n"):
        return None
    names: list[str] = []
    table, at = b"", 8
    while at + 60 <= len(data) and len(names) <= MAX_MEMBERS:
        header = data[at : at + 60]
        raw = header[:16].decode("latin-1").strip()
        try:
            size = int(header[48:58].decode("latin-1").strip() or 0)
        except ValueError:
            return None
        body = data[at + 60 : at + 60 + size]
        if raw == "//":
            table = body
        elif raw.startswith("/") and raw[1:].isdigit():
            start = int(raw[1:])
            end = table.find(b"/\n", start)
            names.append(table[start : end if end >= 0 else len(table)].decode("latin-1"))
        elif raw not in ("/", "/SYM64/", "__.SYMDEF", "__.SYMDEF SORTED"):
            names.append(raw.rstrip("/"))
        at += 60 + size + (size & 1)
    return [n.rsplit("/", 1)[-1] for n in names]


def _directory(path: str, write):
    """The files and directories under ``path`` (a copy of its contents), or None (a link, too many)."""
    if not os.path.isdir(path) or os.path.islink(path):
        return None
    names = []
    for top, dirs, files in os.walk(path, followlinks=False):
        for name in dirs + files:
            full = os.path.join(top, name)
            if os.path.islink(full):
                return None
            names.append(os.path.relpath(full, path))
            if len(names) > MAX_MEMBERS:
                return None
    return names


def _patch_names(write, script):
    """The files a patch names (every strip level of each, so ``-p`` cannot move one elsewhere)."""
    text = _patch_text(write, script)
    if text is None:
        return None
    names: set[str] = set()
    for name in patch_targets(text, write.effect.language == "codex-patch"):
        parts = [p for p in name.split("/") if p not in ("", ".")]
        for k in range(len(parts)):
            names.add("/".join(parts[k:]))
    directory = None
    reading = write.command.reading if write.command is not None else None
    if reading is not None and reading.get("--directory") is not None:
        directory = reading.get("--directory")
        if not directory.exact:
            return None
        names = {directory.value.strip("/") + "/" + n for n in names}
    return sorted(names)


def _patch_text(write, script):
    effect = write.effect
    if effect.language == "codex-patch" and effect.source:
        word = effect.source[0]
        return word.value if word.known else None
    if effect.source:
        texts = []
        for word in effect.source:
            fake = _Source(write, word)
            path = _one_source(fake, script)
            data = paths.readable(path, MAX_PATCH) if path is not None else None
            if not isinstance(data, bytes):
                return None
            texts.append(data.decode("utf-8", "replace"))
        return "\n".join(texts)
    from cupcake.shell.runs import stdin_of

    cmd = write.command
    fed = stdin_of(cmd) if cmd is not None else None
    if fed is None and cmd is not None:  # patch < file.diff
        redirect = next((r for r in reversed(cmd.redirects) if r.op == "<" and r.fd in (None, 0)), None)
        if redirect is not None:
            path = _one_source(_Source(write, redirect.target), script)
            data = paths.readable(path, MAX_PATCH) if path is not None else None
            return data.decode("utf-8", "replace") if isinstance(data, bytes) else None
    if fed is None or not fed[1]:
        return None
    return fed[0]


class _Source:
    """One source of a write, seen as a write of its own (for ``_one_source``)."""

    __slots__ = ("effect", "command")

    def __init__(self, write, word):
        from cupcake.programs.reading import Effect

        self.effect = Effect("into", word, "", source=(word,))
        self.command = write.command


def patch_targets(text: str, codex: bool = False) -> list:
    """The file names a patch text names: ``--- a/x``/``+++ b/x``, ``diff --git a/x b/x``,
    ``rename to x``, ``*** x`` (context diffs), and Codex's ``*** Add/Update/Delete File: x`` and
    ``*** Move to: x`` (headers read with leading blanks trimmed, as Codex reads them)."""
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        for marker in ("*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"):
            if stripped.startswith(marker):
                out.append(stripped[len(marker) :].strip())
                break
        else:
            if codex:
                continue
            if line.startswith(("--- ", "+++ ", "*** ")) and not line.startswith(("*** Begin", "*** End")):
                name = line[4:].split("\t", 1)[0].strip()
                if name and name != "/dev/null" and not name.startswith("*"):
                    out.append(name.strip('"'))
            elif line.startswith("diff --git "):
                out.extend(p.strip('"') for p in line[11:].split(" ") if p)
            elif line.startswith(("rename to ", "copy to ", "rename from ", "copy from ")):
                out.append(line.split(" ", 2)[2].strip())
            elif line.startswith("Index: "):
                out.append(line[7:].strip())
    return out


_LISTERS = {
    "tar": _tar,
    "zip": _zip,
    "ar": _ar,
    "dir": _directory,
    "patch": _patch_names,
    "mbox": _patch_names,
    "codex-patch": _patch_names,
}


def poured_block(check, write):
    """Self-protection's block for an extraction, a copy of a directory's contents, a patch, judged by its
    files when they can be listed (else as any write; ``check``: the ``bash.Check``), or None."""
    listed = members(write, check.script)
    if listed is None:
        return check.known(write) if write.path is not None else check.unpinned(write)
    for path in listed:
        for form in (path, os.path.realpath(path)):
            found = classify(form, check.protected)
            if found:
                return _text(_describe(path, found, check.ctx, write.kind))
            if form in check.protected["settings_dirs"] or check.installed(form):
                return _text(f"this command ({write.kind}) would change {_display(path, check.ctx)}")
    return None
