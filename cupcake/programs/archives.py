"""Archivers and compressors: what they extract (and where), create, or replace. An extraction is
an ``into`` effect on the destination whose ``source`` is the archive (None: standard input) and
whose ``language`` names its format, so a caller that can list the archive knows each member."""

from __future__ import annotations

from cupcake.programs.reading import tail
from cupcake.programs.spec import DELETES, EXTRACTOR, INTO, POSIX, READS, TOOL, WRITES, program
from cupcake.shell.words import Word

_TAR_SHORT_VALUES = "fCbHKLNTVgXI"


def _tar_words(words):
    """Old-style ``tar xzf a.tar`` (a first word of letters without a dash): as ``-x -z -f a.tar``."""
    if len(words) < 2 or not words[1].known or words[1].value.startswith("-") or not words[1].value.isalpha():
        return words
    first = words[1].value
    rest = list(words[2:])
    out = [words[0]]
    for ch in first:
        out.append(Word("-" + ch))
        if ch in _TAR_SHORT_VALUES and rest:
            out.append(rest.pop(0))
    return out + rest


def _extract(r, what: str, dest, source, form: str, tree: bool = True):
    effect = r.add(INTO, dest or Word("."), what, tree=tree, index=len(r.words))
    effect.source = () if source is None else (source,)
    effect.language = form
    return effect


def _tar(r) -> None:
    r.drop(READS, WRITES)
    for effect in r.of("runs"):  # --checkpoint-action=ACTION runs a command only as exec=COMMAND
        if effect.what.endswith("--checkpoint-action"):
            if effect.word.value.startswith("exec="):
                effect.word = tail(effect.word, 5)
            else:
                r.effects.remove(effect)
    archive = r.get("-f", "--file")
    listing = r.has("-t", "--list", "-d", "--diff", "--compare")
    if r.has("-x", "--extract", "--get") and not listing and not r.has("-O", "--to-stdout"):
        if archive is not None and archive.value != "-":
            r.add(READS, archive, "tar")
        _extract(
            r, "tar -x", r.get("-C", "--directory"), archive if archive is None or archive.value != "-" else None, "tar"
        )
        return
    if r.has("-c", "--create", "-r", "--append", "-u", "--update", "--delete", "-A", "--catenate", "--concatenate"):
        if archive is not None and archive.value != "-":
            r.add(WRITES, archive, "tar -c")
        for k, word in enumerate(r.operands):
            r.add(
                DELETES if r.has("--remove-files") else READS,
                word,
                "tar --remove-files" if r.has("--remove-files") else "tar",
                tree=True,
                index=r.where[k],
            )
        return
    if archive is not None and archive.value != "-":
        r.add(READS, archive, "tar")


def _unzip(r) -> None:
    r.drop(READS, INTO)
    if not r.operands:
        return
    archive = r.operands[0]
    r.add(READS, archive, "unzip")
    if r.has("-l", "-t", "-v", "-p", "-c", "-z", "-Z", "-T"):
        return
    effect = _extract(r, "unzip", r.get("-d"), archive, "zip")
    if r.has("-j"):
        effect.what = "unzip -j"


def _zip(r) -> None:
    """``zip ARCHIVE FILE...``: writes ARCHIVE; ``-m`` moves the files in (removes them)."""
    r.drop(READS, WRITES)
    ops = r.operands
    if not ops:
        return
    out = r.get("-O", "--output-file")
    if out is None:
        r.add(WRITES, ops[0], "zip")
    else:
        r.add(READS, ops[0], "zip")
    for word in ops[1:]:
        r.add(
            DELETES if r.has("-m", "--move") else READS,
            word,
            "zip -m" if r.has("-m", "--move") else "zip",
            tree=r.has("-r", "--recurse-paths"),
        )


def _ar(r) -> None:
    """``ar KEY ARCHIVE [MEMBER...]``: x extracts (the members named, else all) here."""
    r.drop(READS, WRITES)
    if len(r.operands) < 2:
        return
    key = r.operands[0].value.lstrip("-")
    archive = r.operands[1]
    members = r.operands[2:]
    ops = set(key)
    if "x" in ops:
        r.add(READS, archive, "ar")
        if members and "P" not in ops:
            for member in members:
                r.add(WRITES, member, "ar x")
        else:
            _extract(r, "ar x", None, archive, "ar")
    elif ops & set("dmqrs"):
        r.add(WRITES, archive, "ar")
        for member in members:
            r.add(READS, member, "ar")
    else:
        r.add(READS, archive, "ar")


def _ar_words(words):
    """``ar rcs lib.a a.o``: the key is the first operand even when it starts with ``-``."""
    if len(words) > 1 and words[1].known and words[1].value.startswith("-") and words[1].value[1:].isalpha():
        return [words[0], Word(words[1].value[1:]), *words[2:]]
    return words


def _seven(r) -> None:
    """``7z x|e|a|d|u|l|t ARCHIVE`` with ``-oDIR``."""
    r.drop(READS, WRITES)
    if len(r.operands) < 2:
        return
    command, archive = r.operands[0].value, r.operands[1]
    dest = next(
        (Word(w.value[2:], known=w.known) for w in r.words if w.value.startswith("-o") and len(w.value) > 2), None
    )
    if command in ("x", "e"):
        r.add(READS, archive, "7z")
        effect = _extract(r, "7z x", dest, archive, "7z")
        if command == "e":
            effect.what = "7z e"
    elif command in ("a", "d", "u", "rn"):
        r.add(WRITES, archive, "7z " + command)
        for word in r.operands[2:]:
            r.add(READS, word, "7z", tree=True)
    else:
        r.add(READS, archive, "7z")


def _cpio(r) -> None:
    r.drop(READS, WRITES)
    if r.has("-i", "--extract") and not r.has("-t", "--list", "--to-stdout"):
        archive = r.get("-F", "-I", "--file")
        _extract(r, "cpio -i", r.get("-D", "--directory"), archive, "cpio")
    elif r.has("-p", "--pass-through") and r.operands:
        _extract(r, "cpio -p", r.operands[0], None, "cpio")
    elif r.has("-o", "--create"):
        archive = r.get("-F", "-O", "--file")
        if archive is not None:
            r.add(WRITES, archive, "cpio -o")


def _renamed(word, suffix: str, unpack: bool):
    """FILE -> FILE.gz, or FILE.gz -> FILE: the name the compressor writes."""
    pattern = list(word.pattern())
    if unpack:
        if word.value.endswith(suffix):
            return Word(
                word.value[: -len(suffix)],
                known=word.known,
                glob=word.glob,
                tokens=None if word.exact else pattern[: -len(suffix)],
            )
        return word  # gunzip refuses a name without the suffix
    return Word(
        word.value + suffix, known=word.known, glob=word.glob, tokens=None if word.exact else pattern + list(suffix)
    )


def _compressor(suffix: str, decompress: bool = False):
    """gzip-like: FILE becomes FILE.gz (or back with ``-d``) and FILE goes, unless kept or streamed."""

    def handler(r) -> None:
        r.drop(READS, WRITES)
        if r.has("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"):
            for word in r.operands:
                r.add(READS, word, r.path[0])
            return
        out = r.get("-o", "--output")
        unpack = decompress or r.has("-d", "--decompress", "--uncompress")
        tree = r.has("-r", "--recursive")
        for word in r.operands:
            if out is None:
                r.add(WRITES, _renamed(word, suffix, unpack), r.path[0], tree=tree)
            if not r.has("-k", "--keep"):
                r.add(DELETES, word, r.path[0], tree=tree)

    return handler


def _pyzip(r) -> None:
    """``python -m zipfile -e ARCHIVE DIR`` / ``-c ARCHIVE FILE...`` (and ``tarfile`` alike)."""
    form = "zip" if r.path[-1].endswith("zipfile") else "tar"
    extract = r.get("-e", "--extract")
    create = r.get("-c", "--create")
    r.drop(READS, WRITES)
    if extract is not None:
        r.add(READS, extract, r.path[-1])
        dest = r.operands[0] if r.operands else Word(".")
        _extract(r, f"{r.path[-1]} -e", dest, extract, form)
    elif create is not None:
        r.add(WRITES, create, f"{r.path[-1]} -c")
        for word in r.operands:
            r.add(READS, word, r.path[-1], tree=True)


_ZIP_STDIN = (
    "-r,--recurse-paths -m,--move -d,--delete -u,--update -f,--freshen -T,--test -TT,--unzip-command=:runs "
    "-O,--output-file=:writes -b,--temp-path= -x,--exclude -i,--include -q,--quiet -v,--verbose -j,--junk-paths "
    "-0 -1 -2 -3 -4 -5 -6 -7 -8 -9 -e,--encrypt -P,--password= -A,--adjust-sfx -F,--fix -FF,--fixfix -g,--grow "
    "-l,--to-crlf -ll,--from-crlf -D,--no-dir-entries -y,--symlinks -X,--no-extra -@,--names-stdin -s,--split-size= "
    "-t,--from-date= -tt,--before-date= -n,--suffixes= -Z,--compression-method= -z,--archive-comment -o,--latest-time "
    "-S,--system-hidden -L,--license -h,--help"
)

SPECS = (
    program(
        "tar",
        EXTRACTOR,
        aliases=("gtar", "bsdtar"),
        options="-A,--catenate,--concatenate -c,--create -d,--diff,--compare --delete -r,--append -t,--list "
        "--test-label -u,--update -x,--extract,--get -f,--file= -C,--directory=:chdir -z,--gzip,--gunzip,--ungzip "
        "-j,--bzip2 -J,--xz --zstd --lzip --lzma --lzop -Z,--compress,--uncompress -a,--auto-compress "
        "-I,--use-compress-program=:runs --to-command=:runs --checkpoint-action=:runs --checkpoint=? "
        "-F,--info-script,--new-volume-script=:runs --rsh-command=:runs --rmt-command=:runs "
        "--index-file=:writes -g,--listed-incremental=:writes -G,--incremental -T,--files-from=:reads "
        "-X,--exclude-from=:reads --exclude= --exclude-vcs --exclude-vcs-ignores --exclude-caches --exclude-backups "
        "--transform=,--xform= -s --strip-components= -k,--keep-old-files --keep-newer-files --keep-directory-symlink "
        "--skip-old-files --overwrite --overwrite-dir --no-overwrite-dir --unlink-first,-U --recursive-unlink "
        "--remove-files -O,--to-stdout -P,--absolute-names -h,--dereference --hard-dereference -v,--verbose "
        "-w,--interactive,--confirmation -p,--preserve-permissions,--same-permissions --no-same-permissions "
        "--same-owner --no-same-owner --numeric-owner --owner= --group= --mode= --mtime= --sort= --format= -H "
        "-b,--blocking-factor= -B,--read-full-records -i,--ignore-zeros -l,--check-links -L,--tape-length= "
        "-M,--multi-volume -N,--newer=,--after-date= -n,--seek -o -S,--sparse -V,--label= -W,--verify --null "
        "--no-recursion --recursion --wildcards --no-wildcards --anchored --no-anchored --ignore-case "
        "--occurrence=? --one-file-system --one-top-level=? --show-transformed-names --totals=? --warning= "
        "--xattrs --no-xattrs --acls --selinux -m,--touch --atime-preserve=? --delay-directory-restore "
        "--no-delay-directory-restore --quoting-style= --utc --restrict --force-local --blocksize= --record-size= "
        "--pax-option= --add-file= --owner-map= --group-map=",
        preparse=_tar_words,
        handler=_tar,
        language="sh",
        examples=(
            "tar -xzf a.tgz => reads a.tgz; into . (tree)",
            "tar xzf a.tgz -C out => reads a.tgz; into out (tree)",
            "tar -czf out.tgz src => writes out.tgz; reads src (tree)",
            "tar -tf a.tar => reads a.tar",
            "tar --remove-files -cf a.tar src => writes a.tar; deletes src (tree)",
            "tar -xf a.tar --checkpoint=1 --checkpoint-action=exec='rm x' => runs rm x; reads a.tar; into . (tree)",
            "tar -xf a.tar --to-command='sh -c x' => runs sh -c x; reads a.tar; into . (tree)",
            "tar -cf a.tar -g snap src => writes snap; writes a.tar; reads src (tree)",
        ),
    ),
    program(
        "unzip",
        EXTRACTOR,
        options="-d= -x -o -n -j -q -qq -l -t -v -p -c -f -u -a -aa -b -B -C -D -K -L -M -s -U -V -W -X -: -^ "
        "-P= -z -Z -T",
        style=POSIX,
        operands="value...",
        handler=_unzip,
        examples=(
            "unzip a.zip => reads a.zip; into . (tree)",
            "unzip -d out a.zip => reads a.zip; into out (tree)",
            "unzip -l a.zip => reads a.zip",
        ),
    ),
    program(
        "zip",
        TOOL,
        options=_ZIP_STDIN,
        handler=_zip,
        language="sh",
        examples=(
            "zip -r out.zip src => writes out.zip; reads src (tree)",
            "zip -m out.zip f => writes out.zip; deletes f",
            "zip -T -TT 'rm x' a.zip f => runs rm x; writes a.zip; reads f",
        ),
    ),
    program(
        "ar",
        EXTRACTOR,
        aliases=("gcc-ar", "llvm-ar"),
        style=POSIX,
        operands="value...",
        preparse=_ar_words,
        handler=_ar,
        examples=(
            "ar x lib.a => reads lib.a; into . (tree)",
            "ar rcs lib.a a.o => writes lib.a; reads a.o",
            "ar x lib.a a.o => reads lib.a; writes a.o",
        ),
    ),
    program(
        "7z",
        EXTRACTOR,
        aliases=("7za", "7zr", "7zz"),
        operands="value...",
        handler=_seven,
        examples=(
            "7z x a.7z -oout => reads a.7z; into out (tree)",
            "7z a out.7z src => writes out.7z; reads src (tree)",
        ),
    ),
    program(
        "cpio",
        EXTRACTOR,
        options="-i,--extract -o,--create -p,--pass-through -t,--list -d,--make-directories -u,--unconditional "
        "-v,--verbose -m,--preserve-modification-time -F,--file= -I= -O= -D,--directory=:chdir -E,--pattern-file=:reads "
        "-H,--format= -R,--owner= -B -c -0,--null -a,--reset-access-time -A,--append -l,--link -L,--dereference "
        "-f,--nonmatching -n,--numeric-uid-gid -r,--rename -V,--dot --to-stdout --no-absolute-filenames --quiet "
        "--sparse --only-verify-crc --no-preserve-owner -b,--swap -s,--swap-bytes -S,--swap-halfwords -C,--io-size= "
        "-M,--message= --rsh-command=:runs -e",
        handler=_cpio,
        language="sh",
        examples=("cpio -id => into . (tree)", "cpio -t => passes"),
    ),
    program(
        "gzip",
        TOOL,
        aliases=("pigz",),
        options="-c,--stdout,--to-stdout -d,--decompress,--uncompress -f,--force -k,--keep -l,--list -n,--no-name "
        "-N,--name -q,--quiet -r,--recursive -S,--suffix= -t,--test -v,--verbose -1,--fast -9,--best -2 -3 -4 -5 -6 -7 -8 "
        "--rsyncable --synchronous -p,--processes= -b,--blocksize=",
        handler=_compressor(".gz"),
        examples=(
            "gzip f => writes f.gz; deletes f",
            "gzip -d f.gz => writes f; deletes f.gz",
            "gzip -c f => reads f",
            "gzip -k f => writes f.gz",
        ),
    ),
    program(
        "gunzip",
        TOOL,
        aliases=("unpigz",),
        options="-c,--stdout -f,--force -k,--keep -l,--list -q,--quiet -r,--recursive -S,--suffix= -t,--test -v,--verbose -N,--name -n,--no-name",
        handler=_compressor(".gz", True),
        examples=("gunzip f.gz => writes f; deletes f.gz",),
    ),
    program(
        "bzip2",
        TOOL,
        aliases=("pbzip2",),
        options="-c,--stdout -d,--decompress -z,--compress -t,--test -f,--force -k,--keep -s,--small -q,--quiet -v,--verbose -1,--fast -9,--best",
        handler=_compressor(".bz2"),
        examples=("bzip2 f => writes f.bz2; deletes f",),
    ),
    program(
        "bunzip2",
        TOOL,
        options="-c,--stdout -f,--force -k,--keep -s,--small -q,--quiet -v,--verbose -t,--test",
        handler=_compressor(".bz2", True),
        examples=("bunzip2 f.bz2 => writes f; deletes f.bz2",),
    ),
    program(
        "xz",
        TOOL,
        aliases=("lzma",),
        options="-c,--stdout,--to-stdout -d,--decompress,--uncompress -z,--compress -t,--test -l,--list -k,--keep -f,--force -T,--threads= -q,--quiet -v,--verbose -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 -e,--extreme -F,--format= -C,--check= -S,--suffix= --files=:reads --files0=:reads -M,--memlimit=",
        handler=_compressor(".xz"),
        examples=("xz f => writes f.xz; deletes f",),
    ),
    program(
        "unxz",
        TOOL,
        aliases=("unlzma",),
        options="-c,--stdout -k,--keep -f,--force -T,--threads= -q,--quiet -v,--verbose -t,--test -l,--list",
        handler=_compressor(".xz", True),
        examples=("unxz f.xz => writes f; deletes f.xz",),
    ),
    program(
        "zstd",
        TOOL,
        options="-c,--stdout -d,--decompress,--uncompress -z,--compress -t,--test -l,--list -k,--keep --rm -f,--force -o=:writes -q,--quiet -v,--verbose -T,--threads= -r -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 -11 -12 -13 -14 -15 -16 -17 -18 -19 --ultra --long=? -D= --patch-from=:reads --output-dir-flat= --output-dir-mirror=",
        handler=_compressor(".zst"),
        examples=("zstd f => writes f.zst; deletes f", "zstd -o out f => writes out; deletes f"),
    ),
    program(
        "unzstd",
        TOOL,
        options="-c,--stdout -k,--keep --rm -f,--force -o=:writes -q,--quiet -v,--verbose",
        handler=_compressor(".zst", True),
        examples=("unzstd f.zst => writes f; deletes f.zst",),
    ),
    program(
        "lz4",
        TOOL,
        options="-c,--stdout -d,--decompress -z,--compress -t,--test -l,--list -k,--keep --rm -f,--force -q,--quiet -v,--verbose -1 -9 -12 -m,--multiple",
        handler=_compressor(".lz4"),
        examples=("lz4 -d f.lz4 => writes f; deletes f.lz4",),
    ),
    program(
        "compress",
        TOOL,
        aliases=("uncompress",),
        options="-c -d -f -r -v -b=",
        handler=_compressor(".Z"),
        examples=("compress f => writes f.Z; deletes f",),
    ),
    program(
        "python -m zipfile",
        EXTRACTOR,
        options="-l,--list= -e,--extract= -c,--create= -t,--test=",
        operands="value...",
        handler=_pyzip,
        examples=(),
    ),
    program(
        "python -m tarfile",
        EXTRACTOR,
        options="-l,--list= -e,--extract= -c,--create= -t,--test= -v,--verbose --filter=",
        operands="value...",
        handler=_pyzip,
        examples=(),
    ),
)
