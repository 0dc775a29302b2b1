"""Programs that remove, move, copy, link, create or re-mode files (coreutils and kin)."""

from __future__ import annotations

from cupcake.programs import paths
from cupcake.programs.spec import DELETES, INTO, LINKS, MODE, POSIX, READS, TOOL, WRITES, program
from cupcake.shell.words import ANY, ONE, SUB, Word, glob_tokens


def _rm(r) -> None:
    tree = r.has("-r", "--recursive")
    r.drop(DELETES)
    for word in r.operands:
        r.add(DELETES, word, "rm", tree=tree)


def _rmdir(r) -> None:
    if r.has("-p", "--parents"):  # rmdir -p a/b/c removes c, then b, then a
        for word in list(r.operands):
            parts = word.value.rstrip("/").split("/")
            for k in range(1, len(parts)):
                r.add(DELETES, Word("/".join(parts[:k]), known=word.known), "rmdir -p")


def _shred(r) -> None:
    if r.has("-u", "--remove"):
        for word in r.operands:
            r.add(DELETES, word, "shred -u")


def _mv(r) -> None:
    paths.copy(r, "mv", tree=True, sources_effect=DELETES)


def _cp(r) -> None:
    tree = r.has("-r", "-R", "--recursive", "-a", "--archive")
    linking = r.has("-l", "--link", "-s", "--symbolic-link")
    paths.copy(r, "cp onto", tree, sources_effect=LINKS if linking else READS)


def _install(r) -> None:
    if r.has("-d", "--directory"):
        for word in r.operands:
            r.add(WRITES, word, "install -d")
        return
    paths.copy(r, "install", False, sources_effect=READS)


def _ln(r) -> None:
    ops = r.operands
    target = r.get("-t", "--target-directory")
    if target is None and len(ops) == 1:  # ln SOURCE: a link named like SOURCE, here
        r.add(LINKS, ops[0], "ln source")
        r.add(WRITES, paths.last(ops[0]), "ln")
        return
    paths.copy(r, "ln", False, sources_effect=LINKS, pour=False)


def _link(r) -> None:
    if len(r.operands) == 2:
        r.add(LINKS, r.operands[0], "link source")
        r.add(WRITES, r.operands[1], "link")


def _mode(r) -> None:
    """chmod/chown/chgrp: the first operand is the mode or owner unless ``--reference`` is given."""
    ops = r.operands if r.has("--reference") else r.operands[1:]
    ops = [w for w in ops if w.value != "MODE"]
    tree = r.has("-R", "--recursive")
    name = r.path[0]
    for word in ops:
        r.add(MODE, word, name, tree=tree)


def _mode_first(words):
    """``chmod -w file``: a mode that starts with ``-`` is the mode, not an option (GNU chmod reads
    it so); it is replaced by a placeholder operand, which ``_mode`` skips."""
    out = list(words)
    for k in range(1, len(out)):
        value = out[k].value
        if out[k].known and len(value) > 1 and value[0] == "-" and value[1] in "rwxXstugoa":
            if all(c in "rwxXstugoa=+-,01234567" for c in value[1:]):
                out[k] = Word("MODE")
                break
    return out


def _chattr(r) -> None:
    for word in r.operands:
        if word.value != "ATTRIBUTES":
            r.add(MODE, word, "chattr", tree=r.has("-R"))


def _chattr_words(words):
    """``chattr +i -a file``: ``-a``/``+i`` are attributes, not options."""
    out = [words[0]]
    for word in words[1:]:
        value = word.value
        if word.known and len(value) > 1 and value[0] in "+-=" and all(c in "aAcCdDeFijmPsStTux" for c in value[1:]):
            out.append(Word("ATTRIBUTES"))
        else:
            out.append(word)
    return out


def _mknod(r) -> None:
    r.drop(WRITES)
    if r.operands:
        r.add(WRITES, r.operands[0], "mknod")


def _mktemp(r) -> None:
    """A new file of a random name: it replaces nothing. Said as its pattern (``tmp.??????????``)."""
    r.drop(WRITES)


def _dd_words(words):
    """``dd if=a of=b``: each ``key=value`` operand as the option ``--key=value``."""
    out = [words[0]]
    for word in words[1:]:
        if word.value[:1] != "-" and "=" in word.value[:8]:
            out.append(
                Word(
                    "--" + word.value,
                    "--" + word.raw,
                    word.known,
                    word.glob,
                    word.quoted,
                    None if word.tokens is None else ["-", "-", *word.tokens],
                )
            )
        else:
            out.append(word)
    return out


def _split(r) -> None:
    """``split [FILE [PREFIX]]``: files PREFIXaa, PREFIXab, … (``x`` when no prefix is given)."""
    r.drop(WRITES)
    prefix = r.operands[1] if len(r.operands) > 1 else Word("x")
    suffix = r.get("--additional-suffix")
    pattern = prefix.pattern() + [ONE, ONE] + (suffix.pattern() if suffix is not None else [])
    r.add(
        WRITES,
        Word(prefix.value + "??" + (suffix.value if suffix else ""), known=prefix.known, glob=True, tokens=pattern),
        "split",
    )


def _csplit(r) -> None:
    prefix = r.get("-f", "--prefix") or Word("xx")
    r.add(
        WRITES, Word(prefix.value + "??", known=prefix.known, glob=True, tokens=prefix.pattern() + [ONE, ONE]), "csplit"
    )


def _uniq(r) -> None:
    r.drop(READS, WRITES)
    if r.operands:
        r.add(READS, r.operands[0], "uniq")
    if len(r.operands) > 1:
        r.add(WRITES, r.operands[1], "uniq")


def _rename(r) -> None:
    """``rename EXPR FILE...`` (perl) / ``rename FROM TO FILE...`` (util-linux): every file may get
    a name the reader cannot compute, in its own directory."""
    if r.has("-n", "--no-act", "--dry-run", "--nono"):
        return
    files = (
        r.operands[1:]
        if r.has("-e")
        else r.operands[2:]
        if len(r.operands) > 2 and not _perl_expr(r.operands[0])
        else r.operands[1:]
    )
    for word in files:
        r.add(DELETES, word, "rename")
        directory = word.value.rsplit("/", 1)[0] if "/" in word.value else "."
        r.add(WRITES, paths.join(Word(directory), paths.any_name()), "rename")


def _perl_expr(word) -> bool:
    return word.value[:1] in ("s", "y") and len(word.value) > 1 and not word.value[1].isalnum()


def _mount(r) -> None:
    """``mount [SOURCE] DIR``: what DIR holds is replaced; ``umount DIR`` likewise."""
    if r.has("-a", "--all", "-l", "--show-labels") and not r.operands:
        return
    if r.operands:
        r.add(INTO, r.operands[-1], r.path[0], tree=True)


def _fallocate(r) -> None:
    if r.operands:
        r.drop(WRITES)
        r.add(WRITES, r.operands[-1], "fallocate")


_FIND_PRE = ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3")
_FIND_VALUES = frozenset(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -user -group "
    "-uid -gid -perm -size -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -newerXY -maxdepth "
    "-mindepth -links -inum -samefile -fstype -context -used -printf -regextype -D".split()
)


def _find(r) -> None:
    """``find [ROOT...] EXPR``: ``-delete`` removes what it finds under the roots; ``-exec``/
    ``-execdir``/``-ok``/``-okdir`` run a command (``{}`` a path found under the root); ``-fprint``
    and ``-fls`` write a file; ``-files0-from`` reads one."""
    words = r.words
    i = 1
    while i < len(words) and words[i].known and (words[i].value in _FIND_PRE or words[i].value.startswith("-D")):
        i += 2 if words[i].value == "-D" else 1
    roots = []
    while i < len(words) and not (
        words[i].known and (words[i].value.startswith("-") or words[i].value in ("(", "!", ")", ","))
    ):
        roots.append(words[i])
        i += 1
    roots = roots or [Word(".")]
    name = None  # the -name every path found before this point has (a plain conjunction of tests only)
    plain = all(w.known and w.value not in _FIND_EITHER and "path" not in w.value for w in words[i:])
    while i < len(words):
        text = words[i].value
        if text in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(words) and not (words[j].known and words[j].value in (";", "+")):
                j += 1
            root = roots[0] if len(roots) == 1 else None
            same = text in ("-exec", "-ok")
            r.more.append(([_found(w, root if same else None, name) for w in words[i + 1 : j]], same))
            i = j + 1
            continue
        if text == "-name" and plain and name is None and i + 1 < len(words):
            name = words[i + 1].value
        if text == "-delete":
            for root in roots:
                r.add(DELETES, root, "find -delete", tree=True)
        elif text in ("-fprint", "-fprint0", "-fprintf", "-fls") and i + 1 < len(words):
            r.add(WRITES, words[i + 1], "find " + text)
            i += 3 if text == "-fprintf" else 2
            continue
        elif text == "-files0-from" and i + 1 < len(words):
            r.add(READS, words[i + 1], "find -files0-from")
        elif text in _FIND_VALUES:
            i += 2
            continue
        i += 1


# Words that make find's expression more than a conjunction of tests (then -name narrows nothing).
_FIND_EITHER = frozenset(("-o", "-or", "!", "-not", ",", "(", ")", "-regex", "-iregex"))


def _found(word, root, name=None) -> Word:
    """``{}`` in an ``-exec`` command: a path found under ``root`` (which one, unknown; it never climbs),
    whose last component matches ``name`` (``-name NAME`` tested before the ``-exec``) when given."""
    if "{}" not in word.value:
        return word
    prefix = list(root.value.rstrip("/") + "/") if root is not None and root.exact else []
    tokens: list = []
    for k, piece in enumerate(word.value.split("{}")):
        if k:
            if k == 1 and not tokens:
                tokens.extend(prefix)
            tokens.append(SUB if prefix else ANY)
            if prefix and name is not None:
                tokens.extend(glob_tokens(name))
        tokens.extend(piece)
    return Word(word.value, word.raw, False, False, word.quoted, tokens)


_CP = (
    "-a,--archive --attributes-only --backup=? -b --copy-contents -d -f,--force -i,--interactive -H -l,--link "
    "-L,--dereference -n,--no-clobber -P,--no-dereference -p --preserve=? --no-preserve= --parents -R,-r,--recursive "
    "--reflink=? --remove-destination --sparse= --strip-trailing-slashes -s,--symbolic-link -S,--suffix= "
    "-t,--target-directory= -T,--no-target-directory -u --update=? -v,--verbose --keep-directory-symlink "
    "-x,--one-file-system -Z --context=? --debug"
)

SPECS = (
    program(
        "rm",
        TOOL,
        aliases=("grm", "srm"),
        options="-f,--force -i -I --interactive=? --one-file-system --no-preserve-root --preserve-root=? "
        "-r,-R,--recursive -d,--dir -v,--verbose",
        operands="deletes...",
        handler=_rm,
        examples=(
            "rm -rf build => deletes build (tree)",
            "rm -fr a b => deletes a (tree); deletes b (tree)",
            "rm -- -f => deletes -f",
            "rm --recur x => deletes x (tree)",
            "rm x.txt => deletes x.txt",
        ),
    ),
    program(
        "find",
        TOOL,
        aliases=("gfind", "bfs"),
        handler=_find,
        examples=(
            "find . -name '*.pyc' -delete => deletes . (tree)",
            "find src -name x -fprint out.txt => writes out.txt",
            "find . -type f -exec rm {} ; => deletes {}",
            "find . -name __pycache__ -type d -exec rm -rf {} + => deletes {} (tree)",
            "find . -newer x -print => passes",
        ),
    ),
    program(
        "rmdir",
        TOOL,
        options="--ignore-fail-on-non-empty -p,--parents -v,--verbose",
        operands="deletes...",
        handler=_rmdir,
        examples=("rmdir a => deletes a", "rmdir -p a/b => deletes a/b; deletes a"),
    ),
    program("unlink", TOOL, operands="deletes", examples=("unlink x => deletes x",)),
    program(
        "shred",
        TOOL,
        options="-f,--force -n,--iterations= --random-source=:reads -s,--size= -u --remove=? -v,--verbose "
        "-x,--exact -z,--zero",
        operands="writes...",
        handler=_shred,
        examples=("shred x => writes x", "shred -u x => writes x; deletes x"),
    ),
    program(
        "mv",
        TOOL,
        aliases=("gmv",),
        options="--backup=? -b --debug --exchange -f,--force -i,--interactive -n,--no-clobber --no-copy "
        "--strip-trailing-slashes -S,--suffix= -t,--target-directory= -T,--no-target-directory -u --update=? "
        "-v,--verbose -Z,--context",
        handler=_mv,
        examples=(
            "mv a b => deletes a (tree); writes b (tree); writes b/a (tree)",
            "mv a b dir/ => deletes a (tree); deletes b (tree); writes dir/a (tree); writes dir/b (tree)",
            "mv -t dir a => deletes a (tree); writes dir/a (tree)",
            "mv --targ=dir a => deletes a (tree); writes dir/a (tree)",
        ),
    ),
    program(
        "cp",
        TOOL,
        aliases=("gcp",),
        options=_CP,
        handler=_cp,
        examples=(
            "cp a b => reads a; writes b; writes b/a",
            "cp -r t/. . => reads t/. (tree); into . (tree)",
            "cp -l a b => links a; writes b; writes b/a",
            "cp --targ=d a => reads a; writes d/a",
            "cp -rT src dst => reads src (tree); writes dst (tree)",
        ),
    ),
    program(
        "install",
        TOOL,
        options="--backup=? -b -c -C,--compare -d,--directory -D -g,--group= -m,--mode= -o,--owner= "
        "-p,--preserve-timestamps -s,--strip --strip-program=:runs -S,--suffix= -t,--target-directory= "
        "-T,--no-target-directory -v,--verbose --preserve-context -Z --context=?",
        handler=_install,
        language="sh",
        examples=("install -d out => writes out", "install -m 755 a bin/a => reads a; writes bin/a; writes bin/a/a"),
    ),
    program(
        "ln",
        TOOL,
        options="--backup=? -b -d,-F,--directory -f,--force -i,--interactive -L,--logical -n,--no-dereference "
        "-P,--physical -r,--relative -s,--symbolic -S,--suffix= -t,--target-directory= -T,--no-target-directory "
        "-v,--verbose",
        handler=_ln,
        examples=(
            "ln -s /tmp/x link => links /tmp/x; writes link; writes link/x",
            "ln cupcake.toml => links cupcake.toml; writes cupcake.toml",
        ),
    ),
    program("link", TOOL, handler=_link, examples=("link a b => links a; writes b",)),
    program(
        "touch",
        TOOL,
        options="-a -c,--no-create -d,--date= -f -h,--no-dereference -m -r,--reference=:reads -t= --time=",
        operands="writes...",
        examples=("touch a b => writes a; writes b", "touch -r ref a => reads ref; writes a"),
    ),
    program(
        "truncate",
        TOOL,
        options="-c,--no-create -o,--io-blocks -r,--reference=:reads -s,--size=",
        operands="writes...",
        examples=("truncate -s 0 x => writes x",),
    ),
    program(
        "tee",
        TOOL,
        options="-a,--append -i,--ignore-interrupts -p --output-error=?",
        operands="writes...",
        examples=("tee -a log => writes log",),
    ),
    program(
        "sponge",
        TOOL,
        options="-a",
        operands="writes",
        examples=("sponge f => writes f",),
    ),
    program(
        "chmod",
        TOOL,
        options="-c,--changes -f,--silent,--quiet -v,--verbose --no-preserve-root --preserve-root "
        "-R,--recursive --reference=:reads",
        preparse=_mode_first,
        handler=_mode,
        examples=("chmod 000 x => mode x", "chmod -R 755 d => mode d (tree)", "chmod -w x => mode x"),
    ),
    program(
        "chown",
        TOOL,
        aliases=("chgrp",),
        options="-c,--changes -f,--silent,--quiet -v,--verbose --dereference -h,--no-dereference --from= "
        "--no-preserve-root --preserve-root -R,--recursive --reference=:reads -H -L -P",
        handler=_mode,
        examples=("chown me x => mode x", "chown -R me:me d => mode d (tree)"),
    ),
    program(
        "chattr",
        TOOL,
        options="-R -V -f -v= -p=",
        preparse=_chattr_words,
        handler=_chattr,
        examples=("chattr +i x => mode x",),
    ),
    program(
        "setfacl",
        TOOL,
        options="-m,--modify= -M,--modify-file=:reads -x,--remove= -X,--remove-file=:reads -b,--remove-all "
        "-k,--remove-default --set= --set-file=:reads --mask -n,--no-mask -d,--default --restore=:reads --test "
        "-R,--recursive -L,--logical -P,--physical -v,--version -h,--help",
        operands="mode...",
        examples=("setfacl -m u:x:r f => mode f",),
    ),
    program(
        "mkdir",
        TOOL,
        options="-m,--mode= -p,--parents -v,--verbose -Z --context=?",
        operands="writes...",
        examples=("mkdir -p a/b => writes a/b",),
    ),
    program(
        "mkfifo", TOOL, options="-m,--mode= -Z --context=?", operands="writes...", examples=("mkfifo p => writes p",)
    ),
    program("mknod", TOOL, options="-m,--mode= -Z --context=?", handler=_mknod, examples=("mknod p p => writes p",)),
    program(
        "mktemp",
        TOOL,
        options="-d,--directory -u,--dry-run -q,--quiet --suffix= -p= --tmpdir=? -t",
        handler=_mktemp,
        examples=("mktemp => passes", "mktemp -d -t x.XXXX => passes"),
    ),
    program(
        "dd",
        TOOL,
        options="--if=:reads --of=:writes --ibs= --obs= --bs= --cbs= --skip= --seek= --count= --conv= "
        "--iflag= --oflag= --status= --iseek= --oseek=",
        preparse=_dd_words,
        examples=("dd if=/dev/zero of=x count=1 => reads /dev/zero; writes x",),
    ),
    program(
        "split",
        TOOL,
        options="-a,--suffix-length= --additional-suffix= -b,--bytes= -C,--line-bytes= -d --numeric-suffixes=? "
        "-x --hex-suffixes=? -e,--elide-empty-files --filter=:runs -l,--lines= -n,--number= -t,--separator= "
        "-u,--unbuffered --verbose",
        operands="reads",
        handler=_split,
        language="sh",
        numeric=True,
        examples=(
            "split -l 10 f part. => reads f; writes part.??",
            "split --filter='rm x' f => runs rm x; reads f; writes x??",
        ),
    ),
    program(
        "csplit",
        TOOL,
        options="-b,--suffix-format= -f,--prefix= -k,--keep-files -n,--digits= -s,--quiet,--silent "
        "-z,--elide-empty-files --suppress-matched",
        operands="reads",
        handler=_csplit,
        examples=("csplit f /x/ => reads f; writes xx??",),
    ),
    program(
        "shuf",
        TOOL,
        options="-e,--echo -i,--input-range= -n,--head-count= -o,--output=:writes --random-source=:reads "
        "-r,--repeat -z,--zero-terminated",
        operands="reads...",
        examples=("shuf -o out in => writes out; reads in",),
    ),
    program(
        "sort",
        TOOL,
        options="-b,--ignore-leading-blanks -d,--dictionary-order -f,--ignore-case -g,--general-numeric-sort "
        "-i,--ignore-nonprinting -M,--month-sort -h,--human-numeric-sort -n,--numeric-sort -R,--random-sort "
        "--random-source=:reads -r,--reverse --sort= -V,--version-sort --batch-size= -c --check=? -C "
        "--compress-program=:runs --debug --files0-from=:reads -k,--key= -m,--merge -o,--output=:writes "
        "-s,--stable -S,--buffer-size= -t,--field-separator= -T,--temporary-directory= --parallel= -u,--unique "
        "-z,--zero-terminated",
        operands="reads...",
        language="sh",
        examples=(
            "sort -o out in => writes out; reads in",
            "sort --out=out in => writes out; reads in",
            "sort --compress-program=gzip in => runs gzip; reads in",
        ),
    ),
    program(
        "uniq",
        TOOL,
        options="-c,--count -d,--repeated -D --all-repeated=? -f,--skip-fields= --group=? -i,--ignore-case "
        "-s,--skip-chars= -u,--unique -z,--zero-terminated -w,--check-chars=",
        handler=_uniq,
        examples=("uniq in out => reads in; writes out",),
    ),
    program(
        "iconv",
        TOOL,
        options="-f,--from-code= -t,--to-code= -o,--output=:writes -c -s,--silent -l,--list --verbose",
        operands="reads...",
        examples=("iconv -f latin1 -t utf8 -o out in => writes out; reads in",),
    ),
    program(
        "rename",
        TOOL,
        aliases=("prename", "file-rename", "perl-rename"),
        options="-v,--verbose -n,--no-act,--dry-run,--nono -f,--force -0,--null -e= -E= -s,--symlink -o,--no-overwrite "
        "-i,--interactive -l,--last",
        handler=_rename,
        complete=False,
        examples=("rename 's/a/b/' x.a => deletes x.a; writes ./…", "rename -n 's/a/b/' x.a => passes"),
    ),
    program(
        "mount",
        TOOL,
        aliases=("umount",),
        options="-a,--all -B,--bind -R,--rbind -M,--move -o,--options= -t,--types= -L,--label= -U,--uuid= "
        "-r,--read-only -w,--rw -n,--no-mtab -f,--fake -v,--verbose -l,--show-labels --make-private "
        "--make-shared --make-slave --make-rprivate -N,--namespace= --target= --source=",
        handler=_mount,
        complete=False,
        examples=("mount --bind /tmp/x dir => into dir (tree)", "umount dir => into dir (tree)"),
    ),
    program(
        "fallocate",
        TOOL,
        options="-c,--collapse-range -d,--dig-holes -i,--insert-range -l,--length= -n,--keep-size -o,--offset= "
        "-p,--punch-hole -v,--verbose -x,--posix -z,--zero-range",
        operands="writes",
        handler=_fallocate,
        examples=("fallocate -l 1M f => writes f",),
    ),
    program(
        "base64",
        TOOL,
        aliases=("base32", "basenc"),
        options="-d,--decode -i,--ignore-garbage -w,--wrap= --base64 --base64url --base32 --base32hex --base16 "
        "--base2msbf --base2lsbf --z85",
        operands="reads",
        style=POSIX,
        examples=("base64 -d f => reads f",),
    ),
)
