"""Programs that work on the file system below the everyday file tools: mount points, special files
(``mknod``, ``mkfifo``), preallocation, attributes and access lists, overwriting (``shred``) and batch
renames (``rename``)."""

from __future__ import annotations

from cupcake.programs import paths
from cupcake.programs.spec import DELETES, INTO, MODE, TOOL, WRITES, program
from cupcake.shell.words import Word


def _shred(r) -> None:
    if r.has("-u", "--remove"):
        for word in r.operands:
            r.add(DELETES, word, "shred -u")


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


SPECS = (
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
        "mkfifo", TOOL, options="-m,--mode= -Z --context=?", operands="writes...", examples=("mkfifo p => writes p",)
    ),
    program("mknod", TOOL, options="-m,--mode= -Z --context=?", handler=_mknod, examples=("mknod p p => writes p",)),
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
)
