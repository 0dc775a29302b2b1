"""The paths a command would write, remove, move, link, re-mode or rewrite: ``writes_of(command)``.

Redirections first, then per program: rm/rmdir/unlink/shred, mv (both sides), cp/install/rsync/scp
destinations (``-t DIR``, ``-T``, ``src/.`` copying into a directory; hard-link sources of ``cp -l``),
ln/link (both sides), tee, truncate, touch, ``sed -i``, ``perl -i``, ``dd of=``, ``sort -o``, ``uniq``
output, curl/wget outputs, archives extracted (tar, unzip, 7z) and (de)compressed files, editors,
patch, git commands that rewrite the worktree, chmod/chown/chgrp/chattr/setfacl, mkdir/mkfifo/mknod,
``find -delete``/``-fprint``. Relative paths resolve against the command's directory; what cannot
be resolved stays a ``Write`` with ``path`` None, its pattern kept for ``could_be``.
"""

from __future__ import annotations

from cupcake.shell.model import Write
from cupcake.shell.unwrap import find_parts
from cupcake.shell.words import ANY, Word, basename_tokens

# program -> (short option letters taking a value, long options taking a value)
_SPECS = {
    "rm": ("", ()),
    "rmdir": ("", ()),
    "unlink": ("", ()),
    "shred": ("ns", ("--iterations", "--size")),
    "mv": ("tS", ("--target-directory", "--suffix")),
    "cp": ("tS", ("--target-directory", "--suffix")),
    "install": ("tSmogC", ("--target-directory", "--suffix", "--mode", "--owner", "--group")),
    "rsync": (
        "efBTM",
        (
            "--exclude",
            "--include",
            "--exclude-from",
            "--include-from",
            "--files-from",
            "--rsh",
            "--rsync-path",
            "--temp-dir",
            "--compare-dest",
            "--copy-dest",
            "--link-dest",
            "--backup-dir",
            "--suffix",
            "--log-file",
            "--partial-dir",
            "--chmod",
            "--filter",
            "--password-file",
            "--out-format",
            "--timeout",
            "--bwlimit",
            "--port",
        ),
    ),
    "scp": ("cFiloPSJ", ()),
    "ln": ("tS", ("--target-directory", "--suffix")),
    "tee": ("", ()),
    "truncate": ("sr", ("--size", "--reference")),
    "touch": ("dtr", ("--date", "--reference")),
    "chmod": ("", ("--reference",)),
    "chown": ("", ("--reference", "--from")),
    "chgrp": ("", ("--reference",)),
    "mkdir": ("m", ("--mode", "--context")),
    "mkfifo": ("m", ("--mode", "--context")),
    "mknod": ("m", ("--mode",)),
    "sort": ("okStT", ("--output", "--key", "--field-separator", "--buffer-size", "--temporary-directory")),
    "uniq": ("fsw", ("--skip-fields", "--skip-chars", "--check-chars")),
    "curl": (
        "AbcCdDeEFHKmoPQrTtuUwxXyYz",
        (
            "--output",
            "--dump-header",
            "--cookie-jar",
            "--trace",
            "--trace-ascii",
            "--stderr",
            "--output-dir",
            "--etag-save",
            "--libcurl",
            "--data",
            "--header",
            "--user-agent",
            "--user",
            "--request",
            "--url",
            "--proxy",
            "--max-time",
            "--referer",
        ),
    ),
    "wget": (
        "OoaPeUtTwQlARDIXBi",
        (
            "--output-document",
            "--output-file",
            "--append-output",
            "--directory-prefix",
            "--user-agent",
            "--tries",
            "--timeout",
        ),
    ),
    "tar": (
        "fCbHKLNTVgXI",
        ("--file", "--directory", "--exclude", "--files-from", "--transform", "--use-compress-program"),
    ),
    "unzip": ("dxP", ()),
    "patch": ("odipBrzDFV", ("--output", "--directory", "--input", "--strip", "--reject-file")),
    "sed": ("efl", ("--expression", "--file", "--line-length")),
    "perl": ("eEIMmx", ()),
}
for _alias, _of in (
    ("gsed", "sed"),
    ("gcp", "cp"),
    ("gmv", "mv"),
    ("grm", "rm"),
    ("bsdtar", "tar"),
    ("gtar", "tar"),
    ("srm", "rm"),
    ("chattr", "chmod"),
    ("setfacl", "chmod"),
):
    _SPECS[_alias] = _SPECS[_of]

_REMOVERS = {"rm", "grm", "srm", "rmdir", "unlink", "shred"}
_MODE = {"chmod", "chown", "chgrp", "chattr", "setfacl"}
_EDITORS = {"vi", "vim", "nvim", "ex", "view", "ed", "red", "nano", "pico", "emacs", "joe", "sudoedit", "micro", "kak"}
_COMPRESSORS = {
    "gzip": ".gz",
    "gunzip": ".gz",
    "bzip2": ".bz2",
    "bunzip2": ".bz2",
    "xz": ".xz",
    "unxz": ".xz",
    "zstd": ".zst",
    "unzstd": ".zst",
    "lzma": ".lzma",
    "unlzma": ".lzma",
    "compress": ".Z",
}
_GIT_WORKTREE = {
    "switch",
    "merge",
    "pull",
    "rebase",
    "cherry-pick",
    "revert",
    "am",
    "apply",
    "read-tree",
    "checkout-index",
    "bisect",
    "filter-branch",
    "sparse-checkout",
}


class _Args:
    """Options (name -> last value Word or None) and operands of a command's arguments."""

    __slots__ = ("opts", "operands")

    def __init__(self, words, letters: str, longs):
        self.opts: dict[str, Word | None] = {}
        self.operands: list[Word] = []
        i = 0
        options = True
        while i < len(words):
            word = words[i]
            text = word.value
            i += 1
            if not options or not word.known or not text.startswith("-") or text == "-":
                self.operands.append(word)
                continue
            if text == "--":
                options = False
                continue
            if text.startswith("--"):
                key, eq, val = text.partition("=")
                if eq:
                    self.opts[key] = Word(val, val, word.known)
                elif key in longs and i < len(words):
                    self.opts[key] = words[i]
                    i += 1
                else:
                    self.opts[key] = None
                continue
            for k, ch in enumerate(text[1:], 1):
                if ch in letters:
                    rest = text[k + 1 :]
                    if rest:
                        self.opts["-" + ch] = Word(rest)
                    elif i < len(words):
                        self.opts["-" + ch] = words[i]
                        i += 1
                    break
                self.opts["-" + ch] = None

    def has(self, *names) -> bool:
        return any(n in self.opts for n in names)

    def get(self, *names):
        for n in names:
            if self.opts.get(n) is not None:
                return self.opts[n]
        return None


# Programs whose effect on the files they are given this module reads (a write of theirs is a Write);
# a caller may treat any other program handed a path it cares about as one that could change it.
UNDERSTOOD = frozenset(
    {*_SPECS, *_REMOVERS, *_MODE, *_EDITORS, *_COMPRESSORS}
    | {"chattr", "curl", "dd", "find", "git", "install", "link", "mknod", "patch", "perl", "rsync", "sort", "uniq"}
    | {"unzip", "wget", "7z", "7za", "7zr", "cp", "gcp", "scp", "gawk", "awk", "ln", "mkdir", "mkfifo", "mv", "gmv"}
    | {"sed", "gsed", "tar", "bsdtar", "gtar", "tee", "truncate", "touch", "sponge", "vi", "vim", "nvim", "ex", "view"}
)


def writes_of(cmd) -> list:
    out = []
    cwd = cmd.cwd
    for redirect in cmd.redirects:
        if redirect.writes:
            out.append(Write("redirection", redirect.target, cwd, command=cmd))
    if not cmd.words or not cmd.words[0].known:
        return out
    name = cmd.program
    words = list(cmd.words[1:])
    if cmd.extra_args:
        words.append(_unknown())

    def add(word, kind, recursive=False, worktree=False, where=cwd):
        out.append(Write(kind, word, where, recursive, worktree, cmd))

    spec = _SPECS.get(name)
    if spec is None and name.startswith("perl5"):  # perl5.36 and the like take perl's options
        spec = _SPECS["perl"]
    # A program without a spec gets no options: its branch reads ``words`` (or does not read them).
    args = _Args(words, spec[0], spec[1]) if spec else _Args((), "", ())
    if name in _REMOVERS:
        for word in args.operands:
            add(word, name, recursive=name != "unlink")
    elif name in _MODE:
        operands = args.operands
        if name == "chattr":
            operands = [w for w in words if w.value[:1] not in "-+="]
        elif not args.has("--reference") and operands:
            operands = operands[1:]
        recursive = args.has("-R", "--recursive")
        for word in operands:
            add(word, name, recursive=recursive)
    elif name in ("mkdir", "mkfifo"):
        for word in args.operands:
            add(word, name)
    elif name == "mknod":
        if args.operands:
            add(args.operands[0], name)
    elif name in ("mv", "gmv"):
        _copy(args, "mv", True, add, cmd, sources_kind="mv")
    elif name in ("cp", "gcp", "install", "rsync", "scp"):
        if name == "install" and args.has("-d", "--directory"):
            for word in args.operands:
                add(word, "install -d")
        else:
            recursive = args.has("-r", "-R", "--recursive", "-a", "--archive") or name == "rsync"
            link = args.has("-l", "--link", "-s", "--symbolic-link")
            _copy(
                args,
                "cp onto" if name in ("cp", "gcp") else name,
                recursive,
                add,
                cmd,
                sources_kind="cp -l source" if link else None,
            )
            if name == "rsync" and args.get("--log-file") is not None:
                add(args.get("--log-file"), "rsync --log-file")
            if name == "rsync" and args.has("--remove-source-files"):
                for word in args.operands[:-1]:
                    add(word, "rsync --remove-source-files")
    elif name in ("ln", "link"):
        if name == "link":
            for word in words:
                add(word, "link")
        else:
            operands = args.operands
            for word in operands[:-1] if (len(operands) > 1 or args.get("-t", "--target-directory")) else operands:
                add(word, "ln source")
            if args.get("-t", "--target-directory") is not None:
                _into(args.get("-t", "--target-directory"), operands, "ln", False, add)
            elif len(operands) == 1:
                add(
                    Word(
                        _base_word(operands[0]).value,
                        known=operands[0].known,
                        tokens=basename_tokens(operands[0].pattern()) if not operands[0].exact else None,
                    ),
                    "ln",
                )
            elif operands:
                _copy(args, "ln", False, add, cmd)
    elif name in ("tee", "truncate", "touch", "sponge"):
        for word in args.operands if spec else words:
            add(word, name)
    elif name in ("sed", "gsed"):
        if any(w.known and (w.value.startswith("--in-place") or _short_i(w.value, "nEsrzu")) for w in words):
            script_given = args.has("-e", "--expression", "-f", "--file")
            files = list(_sed_operands(words))
            for word in files if script_given else files[1:]:
                add(word, "sed -i")
    elif name == "perl" or name.startswith("perl5"):
        if any(w.known and _short_i(w.value, "pnlaw0sSTtuUWX") for w in words):
            script_given = args.has("-e", "-E")
            files = [w for w in args.operands if not w.value.startswith("-")]
            for word in files if script_given else files[1:]:
                add(word, "perl -i")
    elif name in ("gawk", "awk") and any(w.value == "inplace" for w in words):
        for word in [w for w in words if not w.value.startswith("-")][2:]:
            add(word, "awk -i inplace")
    elif name == "dd":
        for word in words:
            if word.value.startswith("of="):
                add(_strip(word, 3), "dd")
    elif name == "sort":
        if args.get("-o", "--output") is not None:
            add(args.get("-o", "--output"), "sort -o")
    elif name == "uniq":
        if len(args.operands) >= 2:
            add(args.operands[1], "uniq")
    elif name == "curl":
        _curl(args, add, cwd)
    elif name == "wget":
        _wget(args, add, cwd)
    elif name in ("tar", "bsdtar", "gtar"):
        _tar(words, add, cwd)
    elif name == "unzip":
        where = args.get("-d")
        if where is not None:
            add(where, "unzip", recursive=True)
        else:
            add(Word("."), "unzip", recursive=True)
    elif name in ("7z", "7za", "7zr") and words and words[0].value in ("x", "e"):
        target = next((Word(w.value[2:], known=w.known) for w in words if w.value.startswith("-o")), Word("."))
        add(target, "7z x", recursive=True)
    elif name in _COMPRESSORS:
        if not any(w.value in ("-c", "--stdout", "-l", "--list", "-t", "--test") for w in words):
            suffix = _COMPRESSORS[name]
            for word in words:
                if word.value.startswith("-") and word.known:
                    continue
                add(word, name, recursive=True)
                value = word.value
                other = value[: -len(suffix)] if value.endswith(suffix) else value + suffix
                add(Word(other, known=word.known, glob=word.glob), name)
    elif name in _EDITORS:
        for word in _Args(words, "cSTuUiwWstq" if name in ("vi", "vim", "nvim", "ex", "view") else "", ()).operands:
            if word.value.startswith("+") and word.known:
                continue
            add(word, "editor")
    elif name == "patch":
        target = args.get("-o", "--output")
        if target is not None:
            add(target, "patch")
        where = args.get("-d", "--directory")
        if args.operands and args.operands[0].value != "-":
            add(args.operands[0], "patch")
        elif where is not None:
            add(where, "patch", recursive=True)
        else:
            add(Word("."), "patch", recursive=True)
    elif name == "git":
        _git(cmd, add)
    elif name == "find":
        roots, _actions, deleting, files = find_parts(cmd.words)
        if deleting:
            for root in roots:
                add(root, "find -delete", recursive=True)
        for word in files:
            add(word, "find -fprint")
    return out


def _unknown() -> Word:
    return Word("…", "…", known=False, tokens=[ANY])


def _short_i(text: str, flags: str) -> bool:
    """``-i``, ``-i.bak``, ``-ni``, ``-pi``, ``-pie``: an in-place option cluster."""
    if not text.startswith("-") or text.startswith("--"):
        return False
    for ch in text[1:]:
        if ch == "i":
            return True
        if ch not in flags:
            return False
    return False


def _sed_operands(words):
    out = []
    i = 0
    while i < len(words):
        word = words[i]
        text = word.value
        i += 1
        if not word.known or not text.startswith("-") or text == "-":
            out.append(word)
        elif text in ("-e", "-f", "-l", "--expression", "--file", "--line-length"):
            i += 1
    return out


def _strip(word: Word, n: int) -> Word:
    tokens = word.tokens[n:] if word.tokens is not None else None
    return Word(word.value[n:], word.raw, word.known, word.glob, word.quoted, tokens)


def _base_word(word: Word) -> Word:
    """The last path component of a word (for ``DIR/basename``)."""
    if word.exact:
        value = word.value.rstrip("/")
        base = value.rsplit("/", 1)[-1] if value else value
        return Word(base)
    tokens = list(word.pattern())
    while tokens and tokens[-1] == "/":
        tokens.pop()
    base = basename_tokens(tokens)
    return Word(word.value.rstrip("/").rsplit("/", 1)[-1], word.raw, word.known, word.glob, word.quoted, base)


def _join(directory: Word, base: Word) -> Word:
    value = directory.value.rstrip("/") + "/" + base.value
    if directory.exact and base.exact:
        return Word(value)
    tokens = list(directory.pattern())
    while tokens and tokens[-1] == "/":
        tokens.pop()
    tokens.append("/")
    tokens.extend(base.pattern())
    return Word(value, value, directory.known and base.known, directory.glob or base.glob, False, tokens)


def _into(directory: Word, sources, kind: str, recursive: bool, add, contents_of_slash: bool = False) -> None:
    """Sources copied/moved/linked into ``directory``: ``DIR/<basename>`` each, or DIR itself
    (recursive) when a source's contents are poured in (``src/.``, ``src/`` for rsync, a glob)."""
    for source in sources:
        value = source.value
        base = _base_word(source)
        if (
            value.endswith("/.")
            or value in (".", "..")
            or base.value in (".", "..", "")
            or (contents_of_slash and value.endswith("/"))
        ):
            add(directory, kind + " (into)", recursive=True)
        else:
            add(_join(directory, base), kind, recursive=recursive)
    add(directory, kind)


def _copy(args: _Args, kind: str, recursive: bool, add, cmd, sources_kind=None) -> None:
    operands = [w for w in args.operands if not (":" in w.value.split("/", 1)[0] and kind in ("rsync", "scp"))]
    target = args.get("-t", "--target-directory")
    if target is not None:
        sources, dest, into = operands, target, True
    elif len(args.operands) >= 2:
        dest = args.operands[-1]
        if ":" in dest.value.split("/", 1)[0] and kind in ("rsync", "scp"):
            return  # a remote destination
        sources, into = [w for w in operands if w is not dest], None
    else:
        return
    if sources_kind:
        for word in sources:
            add(word, sources_kind, recursive=sources_kind == "mv")
    if args.has("-T", "--no-target-directory"):
        add(dest, kind + " (onto)", recursive=True)
        return
    if into is None:
        into = len(sources) > 1 or dest.value.endswith("/") or _is_dir(dest, cmd.cwd)
    if into:
        _into(dest, sources, kind, recursive, add, contents_of_slash=kind == "rsync")
    else:
        contents = any(s.value.endswith("/.") or (kind == "rsync" and s.value.endswith("/")) for s in sources)
        add(dest, kind, recursive=recursive or contents)


def _is_dir(word: Word, cwd) -> bool:
    if not word.exact:
        return True  # unknown: say it may be a directory (the safer reading for "into")
    value = word.value
    if not value.startswith("/"):
        if cwd is None:
            return True
        value = cwd.rstrip("/") + "/" + value
    import os

    try:
        return os.path.isdir(value)
    except (OSError, ValueError):
        return True


def _url_name(url: Word) -> Word:
    value = url.value.split("?", 1)[0].split("#", 1)[0]
    path = value.split("://", 1)[-1]
    base = path.rsplit("/", 1)[-1] if "/" in path else ""
    if not url.known:
        return Word(base or "…", known=False, tokens=[ANY])
    return Word(base or "index.html")


def _curl(args: _Args, add, cwd) -> None:
    for key in (
        "-o",
        "--output",
        "-D",
        "--dump-header",
        "-c",
        "--cookie-jar",
        "--trace",
        "--trace-ascii",
        "--stderr",
        "--etag-save",
        "--libcurl",
    ):
        if args.opts.get(key) is not None:
            add(args.opts[key], "curl " + key)
    if args.has("-O", "--remote-name", "--remote-name-all", "-J", "--remote-header-name"):
        where = args.get("--output-dir") or Word(".")
        for url in args.operands:
            name = _url_name(url) if not args.has("-J", "--remote-header-name") else _unknown()
            add(_join(where, name), "curl -O")


def _wget(args: _Args, add, cwd) -> None:
    for key in ("-o", "--output-file", "-a", "--append-output"):
        if args.opts.get(key) is not None:
            add(args.opts[key], "wget log")
    document = args.get("-O", "--output-document")
    if document is not None:
        if document.value != "-":
            add(document, "wget -O")
        return
    where = args.get("-P", "--directory-prefix") or Word(".")
    if args.has("-r", "--recursive", "-m", "--mirror"):
        add(where, "wget -r", recursive=True)
        return
    for url in args.operands:
        add(_join(where, _url_name(url)), "wget")


def _tar(words, add, cwd) -> None:
    if words and words[0].known and not words[0].value.startswith("-"):  # old style: tar xzf a.tar
        first = words[0].value
        rest = words[1:]
        cluster = "-" + first
        values = []
        for ch in first:
            if ch in "fCbTX" and rest:
                values.append(("-" + ch, rest[0]))
                rest = rest[1:]
        args = _Args(rest, "fCbHKLNTVgXI", ("--file", "--directory"))
        for key, val in values:
            args.opts[key] = val
        for ch in first:
            args.opts.setdefault("-" + ch, None)
        del cluster
    else:
        args = _Args(
            words,
            "fCbHKLNTVgXI",
            ("--file", "--directory", "--exclude", "--files-from", "--transform", "--use-compress-program"),
        )
    if args.has("-x", "--extract", "--get"):
        where = args.get("-C", "--directory") or Word(".")
        add(where, "tar -x", recursive=True)
    elif args.has("-c", "--create", "-r", "--append", "-u", "--update", "--delete"):
        archive = args.get("-f", "--file")
        if archive is not None and archive.value != "-":
            add(archive, "tar -c")


def _git(cmd, add) -> None:
    words = cmd.words
    i = 1
    where = cmd.cwd
    base = None
    while i < len(words):
        text = words[i].value
        if text in ("-C",) and i + 1 < len(words):
            base = (
                words[i + 1]
                if base is None
                else _join(base, words[i + 1])
                if not words[i + 1].value.startswith("/")
                else words[i + 1]
            )
            i += 2
            continue
        if text in ("-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix") and i + 1 < len(
            words
        ):
            if text == "--work-tree":
                base = words[i + 1]
            i += 2
            continue
        if text.startswith("--work-tree="):
            base = Word(text.split("=", 1)[1])
        if text.startswith("-"):
            i += 1
            continue
        break
    if i >= len(words):
        return
    sub = words[i].value
    rest = list(words[i + 1 :])
    if base is not None:
        probe = Write("git", base, where)
        where = probe.path if probe.path is not None else None
    dot = Word(".")
    options = [w.value for w in rest if w.value.startswith("-")]
    if "--" in [w.value for w in rest]:
        cut = [w.value for w in rest].index("--")
        paths, before = rest[cut + 1 :], rest[:cut]
    else:
        paths, before = None, rest
    plain = [w for w in before if not w.value.startswith("-") or not w.known]

    def tree(kind):
        add(dot, kind, recursive=True, worktree=True, where=where)

    def each(words_, kind):
        for word in words_:
            add(word, kind, recursive=True, where=where)

    for k, word in enumerate(rest):  # git diff/log/show/format-patch --output=FILE, -o DIR
        if word.value.startswith("--output=") or word.value.startswith("--output-directory="):
            add(_strip(word, word.value.index("=") + 1), "git " + sub + " --output", where=where)
        elif word.value in ("--output", "--output-directory") or (sub == "format-patch" and word.value == "-o"):
            if k + 1 < len(rest):
                add(rest[k + 1], "git " + sub + " --output", recursive=sub == "format-patch", where=where)
    creating = ("-b", "-B", "--orphan", "-c", "-C", "--create", "--force-create")
    if sub in ("checkout", "switch") and paths is None and any(o in creating for o in options):
        if len([w for w in plain if w.known]) <= 1 and all(w.known for w in plain):
            return  # a new branch at HEAD: the worktree stays as it is
    if sub in ("checkout", "restore"):
        if (
            sub == "restore"
            and any(o in ("--staged", "-S") for o in options)
            and not any(o in ("--worktree", "-W") for o in options)
        ):
            return
        if paths is not None:
            each(paths, "git " + sub)
        elif sub == "restore":
            each([w for w in plain if w.value not in ("-s",)] or [dot], "git restore")
        else:
            values = list(plain)
            if len(values) >= 2:
                each(values[1:], "git checkout")
            elif values:
                each(values, "git checkout")
            tree("git checkout (switch)")
        return
    if sub == "reset":
        if any(o in ("--hard", "--merge", "--keep") for o in options):
            tree("git reset --hard")
        return
    if sub == "stash":
        action = plain[0].value if plain else "push"
        if action in ("list", "show", "drop", "clear", "create", "store", "branch"):
            return
        if paths:
            each(paths, "git stash")
        else:
            tree("git stash " + action)
        return
    if sub == "clean":
        if paths or plain:
            each(paths or plain, "git clean")
        else:
            tree("git clean")
        return
    if sub in ("rm", "mv"):
        each(paths if paths is not None else plain, "git " + sub)
        return
    if sub in _GIT_WORKTREE:
        tree("git " + sub)
        return
    if sub == "clone":
        operands = [w for w in rest if not w.value.startswith("-")]
        if len(operands) >= 2:
            add(operands[1], "git clone", recursive=True, where=where)
        elif operands:
            name = _url_name(operands[0])
            value = name.value[:-4] if name.value.endswith(".git") else name.value
            add(Word(value, known=name.known, tokens=name.tokens), "git clone", recursive=True, where=where)
