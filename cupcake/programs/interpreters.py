"""Interpreters: programs that run code of their own language, given inline (``-c``, ``-e``), as a
script file, or on standard input. awk, sed, ed, vim/ex, gdb and dc are interpreters too: their
code can write files and run commands. ``python -m MODULE`` runs the module as a command of its own
(``python -m pip install``) when the registry knows it, else it is a script the reader cannot see."""

from __future__ import annotations

import binascii

from cupcake.programs import sedscript
from cupcake.programs.spec import (
    CODE,
    INTERPRETER,
    POSIX,
    READS,
    RUNS,
    SCRIPT,
    STDIN_CODE,
    TOOL,
    WRITES,
    program,
)
from cupcake.shell.words import ANY, Word


def _script_first(code_options: tuple, stdin: bool = True, in_place: tuple = ()):
    """The common shape: inline code (``code_options``) or the first operand as a script file, the
    rest arguments; nothing of either: code on standard input. ``in_place``: options that make the
    arguments files written (``perl -i``)."""

    def handler(r) -> None:
        inline = r.has(*code_options) if code_options else False
        if inline:
            r.drop(SCRIPT)  # the first operand is an argument, not a script
        files = r.operands if inline else r.operands[1:]
        if in_place and r.has(*in_place):
            for word in files:
                r.add(WRITES, word, f"{r.path[0]} -i")
        if not inline and not r.operands and stdin:
            r.add(STDIN_CODE, None, r.path[0])
        if r.operands and r.operands[0].known and r.operands[0].value == "-" and not inline:
            r.drop(SCRIPT)
            r.add(STDIN_CODE, None, r.path[0])

    return handler


def _python_words(words):
    """``-c CODE`` and ``-m MODULE`` end python's options: what follows is for the code or module."""
    out = list(words)
    k = 1
    while k < len(out):
        value = out[k].value
        if not out[k].known or not value.startswith("-") or value == "--" or value.startswith("--"):
            return out
        letters = value[1:]
        for j, ch in enumerate(letters):
            if ch in "cm":
                cut = k + 1 if j + 1 < len(letters) else k + 2  # -cCODE, or -c CODE
                return out[:cut] + [Word("--")] + out[cut:]
            if ch in "WX":
                k += 0 if j + 1 < len(letters) else 1
                break
        k += 1
    return out


def _python(r) -> None:
    """``-c CODE``, ``-m MODULE`` (a command of its own when the registry knows it), a script, or stdin."""
    module = r.get("-m")
    if module is not None:
        r.drop(SCRIPT)
        from cupcake.programs import lookup

        name = module.value
        spec = lookup("python -m " + name) or (lookup(name) if name in _MODULE_PROGRAMS else None)
        if module.known and spec is not None:
            r.inner = [Word(spec.name), *r.operands]
        else:
            r.add(SCRIPT, module, "python -m").language = "python-module"
        return
    _script_first(("-c",))(r)


# Modules run with ``python -m`` that are programs of their own in the registry.
_MODULE_PROGRAMS = frozenset(("pip", "pip3", "cupcake", "pytest", "mypy", "black", "isort", "ruff", "uv", "pipx"))


def _perl(r) -> None:
    _script_first(("-e", "-E"), in_place=("-i",))(r)


def _awk(r) -> None:
    """The program is ``-f FILE``/``-e TEXT``, else the first operand; then ``var=value`` or files
    (written in place with gawk's ``-i inplace``)."""
    given = r.has("-f", "--file", "-e", "--source", "-E", "--exec")
    r.drop(READS, CODE, options=True)
    for value in r.values("-e", "--source"):
        r.add(CODE, value, r.path[0] + " -e")
    operands = r.operands
    if not given and operands:
        r.add(CODE, operands[0], r.path[0])
        operands = operands[1:]
    in_place = any(v.value in ("inplace", "inplace.awk") for v in r.values("-i", "--include"))
    for word in operands:
        if word.known and "=" in word.value and word.value.split("=", 1)[0].isidentifier():
            continue
        r.add(WRITES if in_place else READS, word, r.path[0] + (" -i inplace" if in_place else ""))


def _sed(r) -> None:
    """The script is ``-e``/``-f`` or the first operand; its ``w``/``e``/``r`` commands are read."""
    given = r.has("-e", "--expression", "-f", "--file")
    r.drop(READS, CODE, options=True)
    scripts = list(r.values("-e", "--expression"))
    operands = r.operands
    if not given and operands:
        scripts.append(operands[0])
        operands = operands[1:]
    for script in scripts:
        r.add(CODE, script, "sed")
        if not script.known or r.has("--sandbox"):
            continue
        writes, reads, runs = sedscript.scan(script.value)
        for target in writes:
            r.add(WRITES, Word(target), "sed w")
        for source in reads:
            r.add(READS, Word(source), "sed r")
        for command in runs:
            r.add(RUNS, Word(command) if command else Word("…", known=False, tokens=[ANY]), "sed e")
    in_place = r.has("-i", "--in-place")
    for word in operands:
        r.add(WRITES if in_place else READS, word, "sed -i" if in_place else "sed")


def _sed_bsd_in_place(words):
    """BSD sed's ``-i ''`` / ``-i .bak`` (the suffix as the next word): one word ``-i``."""
    out = list(words)
    for k in range(1, len(out) - 1):
        if (
            out[k].known
            and out[k].value == "-i"
            and out[k + 1].known
            and (out[k + 1].value == "" or out[k + 1].value.startswith("."))
        ):
            if k + 2 < len(out):  # something follows: the suffix is not the script
                del out[k + 1]
            break
    return out


def _editor(r) -> None:
    """An editor writes the files it opens; ``+CMD``/``-c CMD`` are its commands."""
    for word in r.operands:
        r.add(WRITES, word, "editor")


def _plus_commands(words):
    """``vim +10 f``, ``vim '+w x' f``: ``+CMD`` is ``-c CMD``."""
    out = [words[0]]
    for word in words[1:]:
        if word.known and word.value.startswith("+") and len(out) > 0:
            out.append(Word("-c"))
            out.append(Word(word.value[1:] or "$"))
        else:
            out.append(word)
    return out


def _trees(r) -> None:
    """A program that fills the directories it is given (``python -m venv DIR``)."""
    for effect in r.of(WRITES):
        effect.tree = True


def _gdb(r) -> None:
    if r.has("--args", "-args") and r.operands:
        r.inner = list(r.operands)


def _dc(r) -> None:
    r.drop(READS)
    for word in r.operands:
        r.add(SCRIPT, word, "dc").language = "dc"
    if not r.operands and not r.has("-e", "--expression", "-f", "--file"):
        r.add(STDIN_CODE, None, "dc")


def _php(r) -> None:
    _script_first(("-r", "-B", "-R", "-E"))(r)
    for value in r.values("-d"):
        key, _eq, setting = value.value.partition("=")
        if key.strip() in ("auto_prepend_file", "auto_append_file") or not value.known:
            r.add(SCRIPT, Word(setting, known=value.known), "php -d " + key.strip())


def _powershell(r) -> None:
    """``-Command TEXT…`` takes every word after it; ``-EncodedCommand`` is base64 of UTF-16LE;
    without either, the first operand is a script file (``-File``) or the command."""
    words = r.words
    for k, (opt, value, at) in enumerate(list(r.opts)):
        if "-command" in opt.names or "-commandwithargs" in opt.names:
            rest = list(words[at + 1 :])
            text = " ".join(w.value for w in rest)
            r.drop(CODE, SCRIPT, options=True)
            r.add(CODE, Word(text, known=all(w.known for w in rest)), "powershell -Command")
            return
        if "-encodedcommand" in opt.names and value is not None:
            r.drop(CODE, SCRIPT, options=True)
            r.add(CODE, _decoded(value), "powershell -EncodedCommand")
            return
    if not r.has("-file") and r.operands:
        first = r.operands[0]
        if not (first.known and first.value.lower().endswith(".ps1")):
            r.drop(SCRIPT)
            text = " ".join(w.value for w in r.operands)
            r.add(CODE, Word(text, known=all(w.known for w in r.operands)), "powershell")
    if not r.operands and not r.has("-file", "-command", "-encodedcommand"):
        r.add(STDIN_CODE, None, "powershell")


def _decoded(value) -> Word:
    if value.known:
        try:
            return Word(binascii.a2b_base64(value.value).decode("utf-16-le"))
        except (ValueError, UnicodeDecodeError):
            pass
    return Word(value.value, known=False, tokens=[ANY])


_PYTHON = (
    "-c=:code -m= -W= -X= -O -OO -B -b -d -E -h -i -I -q -s -S -u -v -V -x -P --check-hash-based-pycs= "
    "--help-env --help-xoptions --help-all --version --help"
)
_NODE = (
    "-e,--eval=:code -p,--print=:code -r,--require=:code --import=:code --loader=,--experimental-loader=:code "
    "-i,--interactive -c,--check --input-type= --env-file=:reads --env-file-if-exists=:reads --inspect=? "
    "--inspect-brk=? --watch --watch-path= --test --test-reporter= -C,--conditions= --title= --stack-size= "
    "--openssl-config=:reads --icu-data-dir= --redirect-warnings=:writes --diagnostic-dir= --report-dir= "
    "--cpu-prof-dir= --heap-prof-dir= --run= -v,--version -h,--help"
)

SPECS = (
    program(
        "python",
        INTERPRETER,
        aliases=("python3", "python2", "pypy", "pypy3"),
        versioned=True,
        options=_PYTHON,
        style=POSIX,
        operands="script args",
        language="python",
        preparse=_python_words,
        handler=_python,
        examples=(
            "python3 -c 'print(1)' => code print(1)",
            "python3 tool.py a b => script tool.py",
            "python3 => stdin code",
            "python3 -Sc 'x' => code x",
            "python3 -m http.server => passes",
            "python3 -m zipfile -e a.zip out => reads a.zip; into out (tree)",
            "python3 -m mystery => script mystery",
        ),
    ),
    program(
        "perl",
        INTERPRETER,
        versioned=True,
        options="-e=:code -E=:code -M=:code -m=:code -I= -i=? -n -p -a -l=? -0=? -F= -s -S -T -t -U -W -X -w -c "
        "-d=? -D=? -x=? -C=? -h -v -V=?",
        style=POSIX,
        operands="script args",
        language="perl",
        handler=_perl,
        examples=(
            "perl -e 'unlink 1' => code unlink 1",
            "perl -pi -e 's/a/b/' f => code s/a/b/; writes f",
            "perl x.pl => script x.pl",
            "perl -i.bak -pe 's/a/b/' f => code s/a/b/; writes f",
        ),
    ),
    program(
        "ruby",
        INTERPRETER,
        versioned=True,
        aliases=("jruby", "truffleruby"),
        options="-e=:code -r=:code -I= -i=? -n -p -a -F= -l -0=? -c -d -w -W=? -v -x=? -C=:chdir -S -E= -K= -T=? "
        "-U -y --enable= --disable= --jit --verbose --version --help --backtrace-limit= --crash-report= --dump= "
        "--encoding= --external-encoding= --internal-encoding=",
        style=POSIX,
        operands="script args",
        language="ruby",
        handler=_script_first(("-e",), in_place=("-i",)),
        examples=("ruby -e 'File.delete(ARGV[0])' f => code File.delete(ARGV[0])", "ruby x.rb => script x.rb"),
    ),
    program(
        "node",
        INTERPRETER,
        aliases=("nodejs",),
        versioned=True,
        options=_NODE,
        style=POSIX,
        operands="script args",
        language="javascript",
        complete=False,
        handler=_script_first(("-e", "-p")),
        examples=(
            "node -e 'x()' => code x()",
            "node app.js => script app.js",
            "node --require ./hook.js app.js => code ./hook.js; script app.js",
        ),
    ),
    program(
        "php",
        INTERPRETER,
        versioned=True,
        options="-r=:code -f=:script -B=:code -R=:code -F=:script -E=:code -a -n -c= -d= -e -h -H -i -l -m -q -s "
        "-S= -t= -v -w -z= --ini --rf= --rc= --re= --ri= --rz=",
        style=POSIX,
        operands="script args",
        language="php",
        handler=_php,
        examples=("php -r 'unlink(1)' => code unlink(1)", "php x.php => script x.php"),
    ),
    program(
        "lua",
        INTERPRETER,
        versioned=True,
        aliases=("luajit",),
        options="-e=:code -l=:code -i -v -E -W",
        style=POSIX,
        operands="script args",
        language="lua",
        handler=_script_first(("-e",)),
        examples=("lua -e 'os.remove(1)' => code os.remove(1)",),
    ),
    program(
        "Rscript",
        INTERPRETER,
        options="-e=:code --file=:script --vanilla --verbose --default-packages= --no-environ --no-site-file --no-init-file",
        style=POSIX,
        operands="script args",
        language="r",
        handler=_script_first(("-e",), stdin=False),
        examples=("Rscript -e 'x' => code x",),
    ),
    program(
        "R",
        INTERPRETER,
        options="-e=:code -f,--file=:script --vanilla --no-save --save --slave -q,--quiet,--silent -s --no-echo "
        "--no-environ --no-site-file --no-init-file --no-restore --args",
        style=POSIX,
        operands="value...",
        language="r",
        examples=("R -e 'x' => code x",),
    ),
    program(
        "tclsh",
        INTERPRETER,
        aliases=("wish", "jimsh"),
        versioned=True,
        options="-encoding=",
        style=POSIX,
        operands="script args",
        language="tcl",
        handler=_script_first(()),
        examples=("tclsh x.tcl => script x.tcl", "tclsh => stdin code"),
    ),
    program(
        "expect",
        INTERPRETER,
        options="-c=:code -f=:script -d -D= -i -n -N -v -b=",
        style=POSIX,
        operands="script args",
        language="tcl",
        handler=_script_first(("-c",)),
        examples=("expect -c 'spawn x' => code spawn x",),
    ),
    program(
        "osascript",
        INTERPRETER,
        options="-e=:code -l= -s= -i",
        style=POSIX,
        operands="script args",
        language="applescript",
        handler=_script_first(("-e",)),
        examples=("osascript -e 'x' => code x",),
    ),
    program(
        "pwsh",
        INTERPRETER,
        aliases=("powershell", "powershell.exe", "pwsh.exe"),
        options="-command,-c,-com,-comm,-comma,-comman=:code -file,-f,-fil=:script -encodedcommand,-e,-ec,-enc,-en= "
        "-commandwithargs,-cwa=:code -executionpolicy,-ex,-ep,-exec= -noprofile,-nop -noninteractive,-noni -nologo,-nol "
        "-inputformat,-inp,-if= -outputformat,-o,-of= -windowstyle,-w= -workingdirectory,-wd=:chdir "
        "-configurationname,-config= -login,-l -mta -sta -noexit,-noe -interactive,-i -settingsfile,-settings=:reads "
        "-version,-v -help,-h,-? -noprofileloadtime -custompipename=",
        style=POSIX,
        single_dash=True,
        fold=True,
        operands="script args",
        language="powershell",
        handler=_powershell,
        examples=(
            "pwsh -c \"Remove-Item ('cup'+'cake.toml')\" => code Remove-Item ('cup'+'cake.toml')",
            "pwsh -NoProfile -File x.ps1 => script x.ps1",
            "powershell -EncodedCommand ZABpAHIA => code dir",
        ),
    ),
    program(
        "awk",
        INTERPRETER,
        aliases=("gawk", "mawk", "nawk", "original-awk"),
        options="-f,--file=:script -v,--assign= -F,--field-separator= -e,--source=:code -i,--include= -l,--load=:script "
        "-E,--exec=:script -b,--characters-as-bytes -c,--traditional -C,--copyright -d,--dump-variables=? "
        "-D,--debug=? -g,--gen-pot -h,--help -L,--lint=? -M,--bignum -n,--non-decimal-data -N,--use-lc-numeric "
        "-o,--pretty-print=? -O,--optimize -p,--profile=? -P,--posix -r,--re-interval -s,--no-optimize "
        "-S,--sandbox -t,--lint-old -V,--version -W=",
        language="awk",
        handler=_awk,
        examples=(
            "awk '{print $1}' f => code {print $1}; reads f",
            "awk -f prog.awk f => script prog.awk; reads f",
            "awk -v x=1 'BEGIN{}' => code BEGIN{}",
            "gawk -i inplace '{print}' f => code {print}; writes f",
        ),
    ),
    program(
        "sed",
        INTERPRETER,
        aliases=("gsed",),
        options="-n,--quiet,--silent --debug -e,--expression=:code -f,--file=:script --follow-symlinks -i,--in-place=? "
        "-l,--line-length= --posix -E,-r,--regexp-extended -s,--separate --sandbox -u,--unbuffered -z,--null-data "
        "-b,--binary --help --version",
        preparse=_sed_bsd_in_place,
        language="sed",
        handler=_sed,
        examples=(
            "sed -n '1,5p' f => code 1,5p; reads f",
            "sed -i 's/a/b/' f => code s/a/b/; writes f",
            "sed --in 's/a/b/' f => code s/a/b/; writes f",
            "sed -e 's/a/b/w out' f => code s/a/b/w out; writes out; reads f",
            "sed '1e rm x' f => code 1e rm x; runs rm x; reads f",
            "sed -f s.sed f => script s.sed; reads f",
            "sed -i '' 's/a/b/' f => code s/a/b/; writes f",
        ),
    ),
    program(
        "ed",
        INTERPRETER,
        aliases=("red",),
        options="-G,--traditional -l,--loose-exit-status -p,--prompt= -r,--restricted -s,--quiet,--silent -v,--verbose",
        language="ed",
        operands="writes",
        handler=lambda r: r.add(STDIN_CODE, None, "ed"),
        examples=("ed -s f => writes f; stdin code",),
    ),
    program(
        "vim",
        INTERPRETER,
        aliases=("vi", "nvim", "ex", "view", "gvim", "rvim", "rview", "vimdiff", "nvi", "elvis", "evim", "gview"),
        options="-c=:code --cmd=:code -S=:script -u=:script -U=:script -i= -w=:writes -W=:writes -T= -t= -q=? -e -E -s "
        "-n -b -R -m -M -Z -N -C -l -A -H -F -d -y -p=? -o=? -O=? -r -L -V=? -D -x -g -f --clean --noplugin "
        "--startuptime=:writes --not-a-term --ttyfail --headless --embed --listen= --remote --remote-silent "
        "--servername= --version -h,--help",
        preparse=_plus_commands,
        language="vim",
        handler=_editor,
        examples=(
            "vim f => writes f",
            "ex -c ':wq' f => code :wq; writes f",
            "vim '+w x' f => code w x; writes f",
            "vim -es -c 'x' f => code x; writes f",
        ),
    ),
    program(
        "emacs",
        INTERPRETER,
        aliases=("emacsclient",),
        options="--eval=:code -l,--load=:script -f,--funcall=:code --batch --script=:script -q,--no-init-file "
        "-Q,--quick -nw --no-splash -L,--directory= --chdir=:chdir -u,--user= --dump-file= --init-directory= "
        "-a,--alternate-editor= -t,--tty -c,--create-frame -e=:code -s,--socket-name=",
        language="elisp",
        complete=False,
        handler=_editor,
        examples=("emacs --batch --eval '(x)' f => code (x); writes f",),
    ),
    program(
        "nano",
        TOOL,
        aliases=("pico", "micro", "joe", "jed", "mg", "kak", "hx", "helix", "sudoedit", "mcedit", "le", "ne"),
        options="-T,--tabsize= -Y,--syntax= -r,--fill= -o,--operatingdir= -X,--wordchars= -C,--backupdir= "
        "-Q,--quotestr= -f,--rcfile=:script -J,--guidestripe= -B,--backup -E,--tabstospaces -v,--view",
        complete=False,
        handler=_editor,
        examples=("nano f => writes f",),
    ),
    program(
        "gdb",
        INTERPRETER,
        aliases=("gdb-multiarch", "cgdb"),
        options="-ex,--ex,-eval-command,--eval-command=:code -x,--x,-command,--command=:script "
        "-iex,--iex,-init-eval-command,--init-eval-command=:code -ix,--ix,-init-command,--init-command=:script "
        "-batch,--batch -batch-silent,--batch-silent -q,-quiet,--quiet,-silent,--silent -nx,--nx,-n -nh,--nh "
        "-p,-pid,--pid= -c,-core,--core= -s,-symbols,--symbols= -e,-exec,--exec= -se= -d,-directory,--directory= "
        "-cd,--cd=:chdir -tty,--tty= -args,--args -return-child-result,--return-child-result -readnow,--readnow "
        "-write,--write -statistics,--statistics -tui,--tui -version,--version -help,--help",
        single_dash=True,
        language="gdb",
        handler=_gdb,
        examples=(
            "gdb -batch -ex 'shell rm x' ./a => code shell rm x",
            "gdb --args ./a b => passes",
            "gdb -x cmds ./a => script cmds",
        ),
    ),
    program(
        "lldb",
        INTERPRETER,
        options="-o,--one-line=:code -O,--one-line-before-file=:code -k,--one-line-on-crash=:code -s,--source=:script "
        "-S,--source-before-file=:script -K,--source-on-crash=:script -b,--batch -x,--no-lldbinit -p,--attach-pid= "
        "-n,--attach-name= -c,--core= -a,--arch= -f,--file= -w,--wait-for -Q,--source-quietly -v,--version -h,--help",
        language="lldb",
        operands="command",
        examples=("lldb -o 'platform shell rm x' => code platform shell rm x",),
    ),
    program(
        "dc",
        INTERPRETER,
        options="-e,--expression=:code -f,--file=:script -h,--help -V,--version",
        language="dc",
        handler=_dc,
        examples=("dc -e '!rm x' => code !rm x", "dc f.dc => script f.dc"),
    ),
    program(
        "julia",
        INTERPRETER,
        options="-e,--eval=:code -E,--print=:code -L,--load=:script -i -q,--quiet --project=? --startup-file= "
        "--history-file= -t,--threads= -p,--procs= -O,--optimize=? --color= --banner= --compile= --depwarn= "
        "--check-bounds= -g= --code-coverage=? --track-allocation=? -J,--sysimage= --heap-size-hint= -C,--cpu-target= "
        "-v,--version -h,--help",
        style=POSIX,
        operands="script args",
        language="julia",
        handler=_script_first(("-e", "-E")),
        examples=("julia -e 'rm(1)' => code rm(1)",),
    ),
    program(
        "groovy",
        INTERPRETER,
        aliases=(
            "scala",
            "kotlin",
            "elixir",
            "iex",
            "racket",
            "guile",
            "sbcl",
            "clisp",
            "octave",
            "jshell",
            "erl",
            "escript",
        ),
        options="-e,--eval,-eval=:code -c=:code -r,--require=:script -l,--load=:script -f=:script -s,--script=:script "
        "-t=:script -pa= -pz= --no-auto-compile -q --quiet --noinform --non-interactive -noshell",
        style=POSIX,
        operands="script args",
        language="other",
        complete=False,
        handler=_script_first(("-e", "--eval", "-eval", "-c")),
        examples=("elixir -e 'File.rm(1)' => code File.rm(1)",),
    ),
    program(
        "java",
        INTERPRETER,
        options="-jar=:script -cp,-classpath,--class-path= -D= -p,--module-path= -m,--module= --add-modules= "
        "-javaagent=:code -agentlib= -agentpath=:code -version -verbose -ea -da -server -client",
        style=POSIX,
        single_dash=True,
        complete=False,
        operands="script args",
        language="java",
        examples=("java -jar app.jar => script app.jar", "java Main => script Main"),
    ),
    program(
        "bc",
        TOOL,
        options="-h,--help -i,--interactive -l,--mathlib -q,--quiet -s,--standard -w,--warn -v,--version -e,--expression= -f,--file=",
        operands="reads...",
        examples=("bc -l f => reads f",),
    ),
    program(
        "python -m venv",
        TOOL,
        options="--system-site-packages --symlinks --copies --clear --upgrade --without-pip --prompt= --upgrade-deps --without-scm-ignore-files",
        operands="writes...",
        handler=_trees,
        examples=(),
    ),
    program(
        "python -m json.tool",
        TOOL,
        options="--sort-keys --no-ensure-ascii --json-lines --indent= --tab --no-indent --compact",
        operands="reads writes",
        examples=(),
    ),
    program(
        "python -m timeit",
        TOOL,
        options="-n,--number= -r,--repeat= -s,--setup=:code -p,--process -u,--unit= -v,--verbose -h,--help",
        operands="code...",
        language="python",
        examples=(),
    ),
    program(
        "python -m cProfile",
        TOOL,
        aliases=("python -m profile",),
        options="-o=:writes -s= -m=",
        operands="script args",
        language="python",
        examples=(),
    ),
    program(
        "python -m http.server",
        TOOL,
        options="-b,--bind= -d,--directory= --cgi -p,--protocol=",
        operands="value",
        examples=(),
    ),
    program(
        "python -m pdb", TOOL, options="-c,--command=:code -m=", operands="script args", language="python", examples=()
    ),
    program(
        "python -m unittest",
        TOOL,
        options="-v -q -f -c -b -k= -s= -p= -t=",
        operands="value...",
        complete=False,
        examples=(),
    ),
    program("python -m gzip", TOOL, options="-d,--decompress --fast --best", operands="writes...", examples=()),
    program(
        "python -m compileall",
        TOOL,
        aliases=(
            "python -m py_compile",
            "python -m site",
            "python -m ensurepip",
            "python -m platform",
            "python -m sysconfig",
            "python -m base64",
            "python -m uuid",
            "python -m calendar",
            "python -m this",
        ),
        operands="value...",
        complete=False,
        examples=(),
    ),
)
