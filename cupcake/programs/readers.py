"""Programs that only read: the files they are given (``reads``) or only their names (``value``:
``ls``, ``stat``, ``realpath``). The few options among them that write or run are marked (``tree
-o``, ``rg --pre``, ``less -o``, ``man -P``, ``date -s``)."""

from __future__ import annotations

from cupcake.programs.spec import CODE, READER, READS, RUNS, UNKNOWN, program
from cupcake.shell.words import ANY, SUB, Word


def _pattern_first(*pattern_options):
    """grep-like: the first operand is the pattern unless one is given with an option."""

    def handler(r) -> None:
        if r.has(*pattern_options) or not r.operands:
            return
        first = r.operands[0]
        r.effects = [e for e in r.effects if not (e.tag == READS and e.word is first)]

    return handler


def _grep(r) -> None:
    _pattern_first("-e", "--regexp", "-f", "--file")(r)
    _recursive("-r", "-R", "--recursive", "--dereference-recursive")(r)


def _recursive(*flags):
    """grep -r / rg: a directory operand is read whole (none given: the current directory)."""

    def handler(r) -> None:
        if flags and not r.has(*flags):
            return
        for effect in r.of(READS):
            effect.tree = True
        if not r.of(READS) and not r.has("--files-from", "--files0-from"):
            r.add(READS, Word("."), r.path[0], tree=True)

    return handler


def _rg(r) -> None:
    _pattern_first("-e", "--regexp", "-f", "--file", "--files")(r)
    _recursive()(r)
    pre = r.get("--pre")
    if pre is not None:  # --pre PROGRAM runs PROGRAM FILE for each file searched
        r.effects = [e for e in r.effects if e.tag != "runs"]
        roots = [e.word for e in r.of(READS)] or [Word(".")]
        for root in roots:
            tokens = list(root.pattern()) + ["/", SUB]
            r.more.append(([pre, Word(root.value + "/…", known=False, tokens=tokens)], True))


_FD_EXEC = ("-x", "--exec", "-X", "--exec-batch")


def _fd(r) -> None:
    """``fd [PATTERN] [PATH...] -x|-X COMMAND... [;]``: the words after ``-x``/``-X`` (clap lets them
    end a cluster: ``-Hx``) are a command run for what is found (``{}``, ``{/}``, ``{.}``… a path
    found, which one unknown; with none written, fd adds the path at the end)."""
    r.drop(RUNS, options=True)
    words = r.words
    for k in range(1, len(words)):
        text = words[k].value
        if not words[k].known:
            continue
        if (
            text in _FD_EXEC
            or text.startswith(("--exec=", "--exec-batch="))
            or (text.startswith("-") and not text.startswith("--") and ("x" in text or "X" in text))
        ):
            rest = list(words[k + 1 :])
            if "=" in text:
                rest.insert(0, Word(text.split("=", 1)[1]))
            end = next((j for j, w in enumerate(rest) if w.known and w.value == ";"), len(rest))
            command = [w if "{" not in w.value else Word(w.value, known=False, tokens=[ANY]) for w in rest[:end]]
            if command and all(w.known for w in command[1:]):  # no placeholder: fd adds the path found
                command.append(Word("{}", known=False, tokens=[ANY]))
            if command:
                r.more.append((command, True))
            else:
                r.add(UNKNOWN, words[k], "fd -x")
            return


def _jq(r) -> None:
    """The first operand is the filter (unless ``-f`` gives it); ``--rawfile``/``--slurpfile`` read a file."""
    if not r.has("-f", "--from-file") and r.operands:
        first = r.operands[0]
        r.effects = [e for e in r.effects if e.word is not first]
        r.add(CODE, first, "jq").language = "jq"
    for opt, value, _i in r.opts:
        if value is not None and ("--rawfile" in opt.names or "--slurpfile" in opt.names):
            r.effects = [e for e in r.effects if e.word is not value]
    pairs = [v for o, v, _i in r.opts if v is not None and ("--rawfile" in o.names or "--slurpfile" in o.names)]
    for value in pairs[1::2]:
        r.add(READS, value, "jq --rawfile")


def _man(r) -> None:
    """``man -l FILE``: the operands are files it formats and shows."""
    if r.has("-l", "--local-file"):
        for word in r.operands:
            r.add(READS, word, "man -l")


def _less(r) -> None:
    """``less +CMD``: commands run at start (``!``/``|`` run a shell, ``s``/``o`` save to a file)."""
    for word in r.words[1:]:
        if word.known and word.value.startswith("+") and any(c in word.value for c in "!|so"):
            r.add(CODE, word, "less +").language = "less"


_GREP = (
    "-e,--regexp= -f,--file=:reads -i,--ignore-case --no-ignore-case -v,--invert-match -w,--word-regexp "
    "-x,--line-regexp -c,--count --color,--colour=? -L,--files-without-match -l,--files-with-matches "
    "-m,--max-count= -o,--only-matching -q,--quiet,--silent -s,--no-messages -b,--byte-offset -H,--with-filename "
    "-h,--no-filename --label= -n,--line-number -T,--initial-tab -Z,--null -A,--after-context= -B,--before-context= "
    "-C,--context= -NUM -a,--text --binary-files= -D,--devices= -d,--directories= --exclude= --exclude-from=:reads "
    "--exclude-dir= --include= -r,--recursive -R,--dereference-recursive --line-buffered -U,--binary -z,--null-data "
    "-E,--extended-regexp -F,--fixed-strings -G,--basic-regexp -P,--perl-regexp -V,--version --help"
)
_RG = (
    "-e,--regexp= -f,--file=:reads --pre=:runs --pre-glob= -g,--glob= --iglob= -t,--type= -T,--type-not= "
    "--type-add= --type-clear= -A,--after-context= -B,--before-context= -C,--context= -m,--max-count= "
    "--max-depth,-d= --max-filesize= -j,--threads= -M,--max-columns= --ignore-file=:reads --path-separator= "
    "-r,--replace= --sort= --sortr= --color= --colors= --context-separator= --field-match-separator= "
    "--field-context-separator= -E,--encoding= --engine= --dfa-size-limit= --regex-size-limit= --hostname-bin=:runs "
    "--hyperlink-format= -i -s -S -w -x -v -c -l -n -N -o -u -uu -uuu -z -L -H -I -U -F -P -a -p -q -0 -b -. "
    "--hidden --no-ignore --files --json --vimgrep --count-matches --trim --stats --debug --passthru --multiline "
    "--search-zip --heading --no-heading --column --no-messages --follow --one-file-system --unrestricted"
)

SPECS = (
    program(
        "cat",
        READER,
        options="-A,--show-all -b,--number-nonblank -e -E,--show-ends -n,--number -s,--squeeze-blank -t -T,--show-tabs -u -v,--show-nonprinting",
        operands="reads...",
        examples=("cat a b => reads a; reads b", "cat -s f => reads f"),
    ),
    # Text filters that read the files they are given; their options are not listed (each is taken
    # as a flag), so an option's value is counted as a file read: more reads, never fewer.
    program(
        "tac",
        READER,
        aliases=(
            "nl",
            "rev",
            "fold",
            "fmt",
            "pr",
            "expand",
            "unexpand",
            "strings",
            "zcat",
            "bzcat",
            "xzcat",
            "zstdcat",
            "lz4cat",
            "zless",
            "zmore",
            "tsort",
            "ptx",
            "cmp",
            "diff3",
            "colordiff",
            "delta",
            "difft",
            "comm",
            "join",
            "paste",
            "cut",
            "column",
            "tr",
            "look",
            "numfmt",
            "iconv-check",
            "xmlstarlet",
            "csvlook",
            "mlr",
            "sha3sum",
        ),
        operands="reads...",
        complete=False,
        examples=("cut -d, -f1 f => reads f",),
    ),
    program(
        "head",
        READER,
        aliases=("tail",),
        options="-c,--bytes= -n,--lines= -q,--quiet,--silent -v,--verbose -z,--zero-terminated -f,--follow=? -F --pid= -s,--sleep-interval= --retry --max-unchanged-stats=",
        operands="reads...",
        numeric=True,
        examples=("head -n 5 f => reads f", "tail -20 f => reads f"),
    ),
    program(
        "wc",
        READER,
        options="-c,--bytes -m,--chars -l,--lines -w,--words -L,--max-line-length --files0-from=:reads --total=",
        operands="reads...",
        examples=("wc -l f => reads f",),
    ),
    program(
        "grep",
        READER,
        aliases=("egrep", "fgrep", "zgrep", "rgrep"),
        options=_GREP,
        operands="reads...",
        numeric=True,
        handler=_grep,
        examples=(
            "grep -rn TODO src => reads src (tree)",
            "grep -e x -f pats f => reads pats; reads f",
            "grep -l x a.py => reads a.py",
        ),
    ),
    program(
        "rg",
        READER,
        options=_RG,
        operands="reads...",
        handler=_rg,
        complete=False,
        language="sh",
        examples=("rg TODO src => reads src (tree)", "rg --pre rm pat src => reads src (tree); deletes src/…"),
    ),
    program(
        "ag",
        READER,
        aliases=("ack", "ack-grep", "pt"),
        options="-G= --ignore= -A= -B= -C= -m= --depth= -p,--path-to-ignore=:reads --pager=:runs",
        operands="reads...",
        handler=_pattern_first(),
        complete=False,
        language="sh",
        examples=("ag x src => reads src",),
    ),
    program(
        "less",
        READER,
        aliases=("more", "most", "pg"),
        options="-o,--log-file=:writes -O,--LOG-FILE=:writes -k,--lesskey-file=:reads --lesskey-src=:reads -p,--pattern= -P,--prompt= -t,--tag= -T,--tag-file= -x,--tabs= -y,--max-forw-scroll= -z,--window= -b,--buffers= -h,--max-back-scroll= -j,--jump-target= -R -r -S -F -X -N -n -i -I -M -m -s -e -E -f -g -G -K -q -Q -w -W -c -a -B -d -L -u -U -V",
        operands="reads...",
        handler=_less,
        complete=False,
        examples=("less f => reads f", "less -o log f => writes log; reads f"),
    ),
    program(
        "bat",
        READER,
        aliases=("batcat",),
        options="-l,--language= -H,--highlight-line= --file-name= -p,--plain -n,--number -A,--show-all --paging= --pager=:runs --theme= --style= -r,--line-range= --color= --decorations= --wrap= --tabs= -d,--diff --list-languages --list-themes",
        operands="reads...",
        complete=False,
        language="sh",
        examples=("bat f => reads f",),
    ),
    program(
        "od",
        READER,
        aliases=("hexdump", "hd"),
        options="-A,--address-radix= -j,--skip-bytes= -N,--read-bytes= -S,--strings=? -t,--format= -v,--output-duplicates -w,--width=? -a -b -c -d -f -i -l -o -s -x -C",
        operands="reads...",
        complete=False,
        examples=("od -c f => reads f",),
    ),
    program(
        "md5sum",
        READER,
        aliases=(
            "sha1sum",
            "sha224sum",
            "sha256sum",
            "sha384sum",
            "sha512sum",
            "b2sum",
            "cksum",
            "sum",
            "shasum",
            "md5",
            "b3sum",
        ),
        options="-b,--binary -c,--check -t,--text --tag -z,--zero --ignore-missing --quiet --status --strict -w,--warn -a,--algorithm= -l,--length= --untagged --base64 --raw",
        operands="reads...",
        examples=("sha256sum f => reads f",),
    ),
    program(
        "diff",
        READER,
        options="-q,--brief -s,--report-identical-files -c -C,--context=? -u -U,--unified=? -e,--ed -n,--rcs -y,--side-by-side -W,--width= --left-column --suppress-common-lines -p,--show-c-function -F,--show-function-line= --label= -t,--expand-tabs -T,--initial-tab --tabsize= --suppress-blank-empty -l,--paginate -r,--recursive --no-dereference -N,--new-file --unidirectional-new-file --ignore-file-name-case --no-ignore-file-name-case -x,--exclude= -X,--exclude-from=:reads -S,--starting-file= --from-file= --to-file= -i,--ignore-case -E,--ignore-tab-expansion -Z,--ignore-trailing-space -b,--ignore-space-change -w,--ignore-all-space -B,--ignore-blank-lines -I,--ignore-matching-lines= -a,--text --strip-trailing-cr -D,--ifdef= --line-format= -d,--minimal --horizon-lines= --speed-large-files --color=? --palette=",
        operands="reads...",
        numeric=True,
        complete=False,
        examples=("diff -u a b => reads a; reads b",),
    ),
    program(
        "file",
        READER,
        options="-b,--brief -c,--checking-printout -E -e,--exclude= -F,--separator= -f,--files-from=:reads -h,--no-dereference -i,--mime -k,--keep-going -L,--dereference -m,--magic-file=:reads -N,--no-pad -n,--no-buffer -p,--preserve-date -r,--raw -s,--special-files -z,--uncompress -Z,--uncompress-noreport -0,--print0 --mime-type --mime-encoding --extension --apple -P,--parameter= -l,--list -C,--compile -d",
        operands="reads...",
        examples=("file a => reads a",),
    ),
    program(
        "jq",
        READER,
        aliases=("gojq", "jaq"),
        options="-f,--from-file=:reads -L= --arg=2 --argjson=2 --rawfile=2 --slurpfile=2 --args --jsonargs -n,--null-input -r,--raw-output -j,--join-output -a,--ascii-output -c,--compact-output -C,--color-output -M,--monochrome-output -S,--sort-keys -s,--slurp -e,--exit-status --tab --indent= --stream --stream-errors --seq -R,--raw-input --raw-output0 --unbuffered -h,--help -V,--version --build-configuration",
        operands="reads...",
        handler=_jq,
        examples=(
            "jq . f.json => code .; reads f.json",
            "jq -r '.a' f => code .a; reads f",
            "jq --rawfile s secret.txt -n '$s' => code $s; reads secret.txt",
        ),
    ),
    program(
        "tree",
        READER,
        options="-o=:writes -L= -P= -I= -H= -T= --charset= --filelimit= --timefmt= --sort= -a -d -l -f -x -q -N -Q -p -u -g -s -h -D -F -i -n -C -A -S -J -X --du --prune --noreport --dirsfirst --gitignore --matchdirs",
        operands="value...",
        examples=("tree -L 2 => passes", "tree -o t.txt => writes t.txt"),
    ),
    program(
        "fd",
        READER,
        aliases=("fdfind",),
        options="-e,--extension= -t,--type= -E,--exclude= -d,--max-depth= --min-depth= --exact-depth= -S,--size= "
        "--changed-within=,--change-newer-than=,--newer= --changed-before=,--change-older-than=,--older= -o,--owner= "
        "-j,--threads= --max-results= -c,--color= --base-directory= --search-path= --path-separator= "
        "--ignore-file=:reads --batch-size= --format= -H,--hidden -I,--no-ignore -u,--unrestricted -s,--case-sensitive "
        "-i,--ignore-case -g,--glob --regex -F,--fixed-strings -a,--absolute-path -l,--list-details -L,--follow "
        "-p,--full-path -0,--print0 -q,--quiet -1 --prune --show-errors --strip-cwd-prefix=? --one-file-system "
        "--no-ignore-vcs --no-ignore-parent --no-global-ignore-file -h,--help -V,--version -x,--exec=:runs "
        "-X,--exec-batch=:runs",
        operands="value...",
        handler=_fd,
        complete=False,
        examples=("fd -e py => passes", "fd -e toml -x rm => deletes {}", "fd . src -X rm {} => deletes {}"),
    ),
    # Programs that look at names, not contents (and their options are taken as flags).
    program(
        "ls",
        READER,
        aliases=(
            "dir",
            "vdir",
            "exa",
            "eza",
            "lsd",
            "stat",
            "du",
            "df",
            "realpath",
            "readlink",
            "basename",
            "dirname",
            "pwd",
            "which",
            "whereis",
            "namei",
            "locate",
            "plocate",
            "mlocate",
        ),
        operands="value...",
        complete=False,
        examples=("ls -la => passes", "stat -c %s f => passes"),
    ),
    program(
        "whoami",
        READER,
        aliases=(
            "id",
            "uname",
            "nproc",
            "uptime",
            "free",
            "ps",
            "pgrep",
            "pidof",
            "lsof",
            "tput",
            "locale",
            "getconf",
            "lscpu",
            "lsblk",
            "ss",
            "netstat",
            "ping",
            "nslookup",
            "host",
            "w",
            "who",
            "groups",
            "users",
            "expr",
            "factor",
            "seq",
            "yes",
            "sleep",
            "printenv",
            "tty",
            "logname",
            "top",
            "htop",
            "vmstat",
            "iostat",
            "mpstat",
            "sar",
            "uuidgen",
            "mcookie",
            "cal",
            "ncal",
            "pathchk",
            "clear",
            "reset",
            "stty",
            "lsusb",
            "lspci",
            "dmesg",
            "last",
            "lastlog",
            "finger",
            "getent",
            "pstree",
            "sensors",
            "acpi",
        ),
        operands="value...",
        complete=False,
        examples=("whoami => passes", "seq 1 10 => passes"),
    ),
    program(
        "objdump",
        READER,
        aliases=("nm", "readelf", "size", "otool", "ldd"),
        operands="reads...",
        complete=False,
        examples=("objdump -d a.out => reads a.out", "ldd ./app => reads ./app"),
    ),
    program(
        "hostname",
        READER,
        options="-F,--file=:reads -b,--boot -a,--alias -d,--domain -f,--fqdn,--long -A,--all-fqdns -i,--ip-address "
        "-I,--all-ip-addresses -s,--short -y,--yp,--nis",
        operands="value",
        examples=("hostname -f => passes", "hostname -F f => reads f"),
    ),
    program(
        "dig",
        READER,
        aliases=("delv",),
        options="-f=:reads -k=:reads -b= -c= -p= -q= -t= -x= -y= -4 -6 -h -m -r -u -v",
        operands="value...",
        complete=False,
        examples=("dig example.com => passes", "dig -f names => reads names"),
    ),
    program(
        "man",
        READER,
        aliases=("info", "apropos", "whatis", "tldr"),
        handler=_man,
        options="-P,--pager=:runs -H,--html=?:runs -l,--local-file -k,--apropos -f,--whatis -M,--manpath= -a,--all -w,--where -K,--global-apropos -s,--sections= -S=",
        operands="value...",
        complete=False,
        language="sh",
        examples=("man ls => passes", "man -P 'rm x' ls => runs rm x", "man -l f.1 => reads f.1"),
    ),
    program(
        "date",
        READER,
        aliases=("gdate",),
        options="-d,--date= -f,--file=:reads -I,--iso-8601=? -R,--rfc-email --rfc-3339= -r,--reference=:reads -s,--set= -u,--utc,--universal --debug",
        operands="value...",
        examples=("date +%s => passes",),
    ),
)
